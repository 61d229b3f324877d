#!/usr/bin/env python3
"""Benchmarks/web.sh's driver: the map page of `spots serve` in Debian's chromium (Selenium).

usage: web_page.py BASE_URL SPOTS_CSV --loads N --queries N --seed N

Prints three rows: the page's own files (bytes over HTTP), its start (from navigation to the
map and its first pins drawn, a new browser for each of N loads: median and max), and typed
searches (N names of spots within 2 km of a seeded spot, typed into the search bar of a page
opened there; for each, from the request leaving the page to its results drawn as pins and
list, the debounce not counted: p50, p95, max), beside the same requests fetched alone.
"""
import argparse
import csv
import json
import math
import random
import statistics
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

PAGE_FILES = [
    "/", "/web/style.css", "/web/app.js", "/web/api.js", "/web/strings.js", "/web/map.js", "/web/search.js",
    "/web/sheet.js", "/web/leaflet.js", "/web/leaflet.css", "/web/leaflet.markercluster.js", "/web/MarkerCluster.css",
]


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
    )
    return driver


def wait(condition, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise SystemExit("web_page.py: the page did not finish in time")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def metres(a, b):
    lat1, lon1, lat2, lon2 = map(math.radians, (*a[:2], *b[:2]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("csv")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--seed", type=int, default=44)
    arguments = parser.parse_args()
    base = arguments.base.rstrip("/")
    random.seed(arguments.seed)

    sizes = [len(urllib.request.urlopen(base + path, timeout=10).read()) for path in PAGE_FILES]
    print(f"page files     {sum(sizes) / 1000:.1f} KB in {len(sizes)} files (goal ≤ 300 KB)")

    named = []
    with open(arguments.csv, newline="", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            if row["name"]:
                named.append((float(row["lat"]), float(row["lon"]), row["name"]))
    centre = random.choice(named)
    around = [spot for spot in named if metres(spot, centre) < 2000]
    queries = [" ".join(spot[2].split()[:2]) for spot in random.sample(around, min(arguments.queries, len(around)))]
    view = f"#map=15/{centre[0]:.5f}/{centre[1]:.5f}"

    starts = []
    for _ in range(arguments.loads):
        with browser() as driver:
            driver.get(base + "/" + view)
            starts.append(wait(lambda: driver.execute_script("return window.spotsReadyAt")))
    print(f"usable after   median {statistics.median(starts):.0f} ms, max {max(starts):.0f} ms over "
          f"{len(starts)} loads (goal ≤ 1000 ms)")

    drawn, alone = [], []
    with browser() as driver:
        driver.get(base + "/" + view)
        wait(lambda: driver.execute_script("return window.spotsReadyAt"))
        field = driver.find_element(By.ID, "query")
        for query in queries:
            before = driver.execute_script("return window.spotsTimings.length")
            field.clear()
            field.send_keys(query)
            timing = wait(
                lambda: next(
                    (t for t in driver.execute_script("return window.spotsTimings")[before:]
                     if t.get("query") == query and "drawn" in t),
                    None,
                )
            )
            drawn.append(timing["drawn"] - timing["sent"])
            start = time.perf_counter()
            json.load(urllib.request.urlopen(base + timing["url"], timeout=10))
            alone.append((time.perf_counter() - start) * 1000)
    print(f"typed search   p50 {percentile(drawn, 0.5):.1f} ms, p95 {percentile(drawn, 0.95):.1f} ms, "
          f"max {max(drawn):.1f} ms over {len(drawn)} queries (goal p95 ≤ 100 ms)")
    print(f"  API alone    p50 {percentile(alone, 0.5):.1f} ms, p95 {percentile(alone, 0.95):.1f} ms "
          f"(the same requests fetched by this script)")


main()
