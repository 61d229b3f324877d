#!/usr/bin/env python3
"""The map page of `spots serve`, driven in Debian's chromium through Selenium.

usage: page_check.py BASE_URL [--screenshots DIR]
       page_check.py BASE_URL --tiles

BASE_URL is a server answering the samples index (central Helsinki and Himeji). Each check
opens the page in a fresh browser, does what a person does (types, clicks pins and clusters,
zooms out, toggles the list, opens a shared link, refuses their location) and compares what
the page draws with the API's answer to the same request. Prints one line per check and exits
1 when any fails. With --screenshots, writes web-desktop.png and web-phone.png (a search done
and a sheet open) into DIR. With --tiles, BASE_URL is a server given --tiles-dir with tiles
for zooms 0 to 2, and only the check that the page draws them runs.
"""
import json
import math
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

BASE = sys.argv[1].rstrip("/")
SCREENSHOTS = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
TILES = "--tiles" in sys.argv
RAILWAY_SQUARE = "#map=16/60.17100/24.94200"
DESKTOP = (1280, 800)
PHONE = (390, 844)


def browser(size=DESKTOP, language="en", geolocation="block"):
    """A headless chromium of viewport `size`, speaking `language`, with location refused or granted."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--lang={language}"]:
        options.add_argument(argument)
    options.add_experimental_option(
        "prefs",
        {
            "intl.accept_languages": language,
            "profile.default_content_setting_values.geolocation": 2 if geolocation == "block" else 1,
        },
    )
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == PHONE},
    )
    if geolocation != "block":
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": BASE, "permissions": ["geolocation"]})
        lat, lon = geolocation
        driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 10})
    return driver


def api(path):
    with urllib.request.urlopen(BASE + path, timeout=10) as answer:
        return json.load(answer)


def ref(result):
    return result["osm_type"][0] + str(result["osm_id"])


def wait(condition, what, seconds=10):
    """The first true value of `condition()`; fails naming `what` after `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = condition()
        except Exception:
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def open_page(driver, fragment="", query=""):
    """Opens the page and waits until the map has drawn its first pins."""
    driver.get(f"{BASE}/{query}{fragment}")
    wait(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"), "the first pins")


def searched(driver, text, count_before):
    """Waits for the search of `text` to be drawn; its timing (with the URL it asked)."""
    return wait(
        lambda: next(
            (
                timing
                for timing in driver.execute_script("return window.spotsTimings")[count_before:]
                if timing.get("query") == text and "drawn" in timing
            ),
            None,
        ),
        f"the results of '{text}'",
    )


def type_query(driver, text):
    before = len(driver.execute_script("return window.spotsTimings"))
    field = driver.find_element(By.ID, "query")
    field.clear()
    field.send_keys(text)
    return searched(driver, text, before)


def last_browse(driver):
    """The query string of the last /v1/clusters request the page drew."""
    timings = [t for t in driver.execute_script("return window.spotsTimings") if t["url"].startswith("/v1/clusters")]
    return timings[-1]["url"].split("?", 1)[1] if timings else ""


def parameter(query, name):
    return urllib.parse.parse_qs(query).get(name, [""])[0]


def open_pin(driver):
    """Clicks a pin in the open part of the map (beside the panel); its ref."""
    width = driver.execute_script("return innerWidth")
    height = driver.execute_script("return innerHeight")

    def clear(element):
        box = element.rect
        return (20 if width < 700 else 400) < box["x"] < width - 60 and 200 < box["y"] < height - 100

    pin = wait(lambda: next(filter(clear, driver.find_elements(By.CSS_SELECTOR, ".spot-pin[data-ref]")), None), "a pin")
    chosen = pin.get_attribute("data-ref")
    pin.click()
    return chosen


def in_view(driver, place):
    """Whether `place` (lat, lon) is in the viewport the page's address (#map=z/lat/lon) names."""
    zoom, lat, lon = (float(part) for part in driver.current_url.split("#map=")[1].split("/"))
    scale = 256 * 2**zoom

    def pixels(lat, lon):
        sine = math.sin(math.radians(lat))
        return (lon + 180) / 360 * scale, (0.5 - math.log((1 + sine) / (1 - sine)) / (4 * math.pi)) * scale

    (x, y), (cx, cy) = pixels(*place), pixels(lat, lon)
    width, height = driver.execute_script("return [innerWidth, innerHeight]")
    return abs(x - cx) < width / 2 and abs(y - cy) < height / 2


def drawn_pins(driver, layer):
    """What a layer draws: the refs of its single pins and the counts of its clusters."""
    pins = [e.get_attribute("data-ref") for e in driver.find_elements(By.CSS_SELECTOR, ".spot-pin[data-ref]")]
    clusters = [int(e.get_attribute("data-count")) for e in driver.find_elements(By.CSS_SELECTOR, f".cluster.{layer}")]
    return pins, clusters


CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


@check
def search_draws_the_apis_answer():
    with browser() as driver:
        open_page(driver, RAILWAY_SQUARE)
        timing = type_query(driver, "cafe")
        expect("near=60.17" in timing["url"], f"the search is not near the map's centre: {timing['url']}")
        answer = [ref(r) for r in api(timing["url"])["results"]]
        expect(len(answer) > 20, f"'cafe' found only {len(answer)} places")
        listed = [e.get_attribute("data-ref") for e in driver.find_elements(By.CSS_SELECTOR, "#results li")]
        expect(listed == answer, f"the list {listed[:5]}… is not the API's answer {answer[:5]}…")
        places = [(r["lat"], r["lon"]) for r in api(timing["url"])["results"]]
        zoom_out = driver.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-out")
        for _ in range(12):
            if all(in_view(driver, place) for place in places):
                break
            zoom_out.click()
            time.sleep(0.5)
        time.sleep(0.5)
        pins, clusters = drawn_pins(driver, "results")
        expect(set(pins) <= set(answer), "a pin is not among the results")
        expect(len(pins) + sum(clusters) == len(answer), f"{len(pins)} pins + clusters of {sum(clusters)} ≠ {len(answer)}")
        typo = type_query(driver, "kiasmaa")
        expect([ref(r) for r in api(typo["url"])["results"]][:1] == ["w8042215"], "a typo does not find Kiasma")
        expect(driver.find_element(By.CSS_SELECTOR, "#results li").get_attribute("data-ref") == "w8042215", "typo list")


@check
def a_pin_opens_its_sheet():
    with browser() as driver:
        open_page(driver, RAILWAY_SQUARE)
        type_query(driver, "museum")
        chosen = open_pin(driver)
        sheet = wait(lambda: driver.find_element(By.CSS_SELECTOR, f"#sheet[data-ref='{chosen}']:not([hidden])"), "sheet")
        spot = api(f"/v1/spots/{chosen}?language=en")
        title = sheet.find_element(By.TAG_NAME, "h2").text
        expect(title == spot["display_name"], f"the sheet says '{title}', the API '{spot['display_name']}'")
        links = [a.get_attribute("href") for a in sheet.find_elements(By.TAG_NAME, "a")]
        expect(f"geo:{spot['lat']},{spot['lon']}" in links, f"no geo: link in {links}")
        expect(any("openstreetmap.org/directions" in link for link in links), "no directions link")
        expect(driver.current_url.endswith(f"#{chosen}"), f"the address is {driver.current_url}")
        driver.find_element(By.ID, "sheet-close").click()
        wait(lambda: not driver.find_element(By.ID, "sheet").is_displayed(), "the sheet to close")


@check
def a_shared_link_opens_the_sheet():
    with browser() as driver:
        driver.get(f"{BASE}/#w8042215")
        sheet = wait(lambda: driver.find_element(By.CSS_SELECTOR, "#sheet[data-ref='w8042215']:not([hidden])"), "sheet")
        text = sheet.text
        for words in ["Kiasma", "Mannerheiminaukio 2, 00100 Helsinki", "Tu 10:00-17:00", "+358 (0)294 500 501"]:
            expect(words in text, f"the sheet lacks '{words}': {text!r}")
        links = [a.get_attribute("href") for a in sheet.find_elements(By.TAG_NAME, "a")]
        for link in [
            "tel:+3580294500501",
            "https://kiasma.fi/",
            "https://fi.wikipedia.org/wiki/Kiasma_(rakennus)",
            "https://www.wikidata.org/wiki/Q11871262",
            "https://www.openstreetmap.org/way/8042215",
        ]:
            expect(link in links, f"the sheet has no link {link}: {links}")


@check
def zooming_out_gives_clusters_that_add_up():
    with browser() as driver:
        open_page(driver, RAILWAY_SQUARE)
        before = len(driver.execute_script("return window.spotsTimings"))
        zoom_out = driver.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-out")
        for _ in range(4):
            zoom_out.click()
            time.sleep(0.4)
        wait(lambda: "#map=12/" in driver.current_url, "zoom 12")
        wait(lambda: len(driver.execute_script("return window.spotsTimings")) > before, "the clusters")
        time.sleep(0.5)
        bbox = parameter(last_browse(driver), "bbox")
        pins, clusters = drawn_pins(driver, "browse")
        expect(clusters, "no cluster at zoom 12")
        answer = api(f"/v1/clusters?bbox={bbox}&zoom=12")["results"]
        expected = sum(item.get("point_count", 1) for item in answer)
        in_view = len(api(f"/v1/search?bbox={bbox}&limit=1000")["results"])
        expect(len(pins) + sum(clusters) == expected == in_view, f"{len(pins)}+{sum(clusters)}, {expected}, {in_view}")
        driver.find_elements(By.CSS_SELECTOR, ".cluster.browse")[0].click()
        wait(lambda: "#map=12/" not in driver.current_url, "a tap on a cluster to zoom in")


@check
def category_chips_filter():
    with browser() as driver:
        open_page(driver, "#map=13/60.16800/24.94000")
        driver.find_element(By.CSS_SELECTOR, ".chip[data-category='museum']").click()
        wait(lambda: parameter(last_browse(driver), "categories") == "museum", "the museums")
        time.sleep(0.3)
        pins, clusters = drawn_pins(driver, "browse")
        bbox = parameter(last_browse(driver), "bbox")
        museums = len(api(f"/v1/search?bbox={bbox}&categories=museum&limit=1000")["results"])
        expect(len(pins) + sum(clusters) == museums, f"{len(pins)}+{sum(clusters)} drawn, {museums} museums in view")
        timing = type_query(driver, "kiasma")
        expect("categories=museum" in timing["url"], "the chip is not combined with the text")


@check
def the_list_toggles_and_takes_the_keyboard():
    with browser() as driver:
        open_page(driver, RAILWAY_SQUARE)
        toggle = driver.find_element(By.ID, "toggle-view")
        expect(not driver.find_element(By.ID, "list-view").is_displayed(), "the list shows before it is asked for")
        toggle.click()
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#results li"), "the list of places nearby")
        expect(toggle.text == "Map", f"the toggle says {toggle.text}")
        toggle.click()
        expect(not driver.find_element(By.ID, "list-view").is_displayed(), "the list stays")
        type_query(driver, "hotel")
        field = driver.find_element(By.ID, "query")
        field.send_keys(Keys.ARROW_DOWN)
        first = driver.switch_to.active_element
        expect(first.tag_name == "li", "ArrowDown does not go to the list")
        first.send_keys(Keys.ARROW_DOWN)
        second = driver.switch_to.active_element
        expect(second.get_attribute("data-ref") != first.get_attribute("data-ref"), "ArrowDown does not move on")
        second.send_keys(Keys.ENTER)
        chosen = second.get_attribute("data-ref")
        wait(lambda: driver.find_element(By.CSS_SELECTOR, f"#sheet[data-ref='{chosen}']:not([hidden])"), "Enter's sheet")


@check
def search_this_area_after_moving():
    with browser() as driver:
        open_page(driver, RAILWAY_SQUARE)
        type_query(driver, "restaurant")
        button = driver.find_element(By.ID, "search-area")
        expect(not button.is_displayed(), "'Search this area' shows before the map moved")
        drag = ActionChains(driver).move_to_element_with_offset(driver.find_element(By.ID, "map"), 200, 0)
        drag.click_and_hold()
        for _ in range(5):
            drag.move_by_offset(-100, 50)
        drag.release().perform()
        wait(lambda: button.is_displayed(), "'Search this area'")
        before = len(driver.execute_script("return window.spotsTimings"))
        button.click()
        timing = searched(driver, "restaurant", before)
        expect("bbox=" in timing["url"], f"'Search this area' does not ask within the view: {timing['url']}")


@check
def refused_location_says_so():
    with browser() as driver:
        open_page(driver, RAILWAY_SQUARE)
        driver.find_element(By.ID, "near-me").click()
        message = driver.find_element(By.ID, "message")
        wait(lambda: "refused" in message.text, f"the refusal's message (it says {message.text!r})")


@check
def granted_location_centres_the_map():
    with browser(geolocation=(34.8394, 134.6939)) as driver:
        open_page(driver, RAILWAY_SQUARE)
        driver.find_element(By.ID, "near-me").click()
        wait(lambda: "/34.839" in driver.current_url, "the map at the user's location")
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".user-dot"), "the user's dot")
        timing = type_query(driver, "castle")
        expect(api(timing["url"])["results"][0]["category"] == "castle", "Himeji Castle is not found near the user")


@check
def japanese_interface():
    with browser(language="ja") as driver:
        open_page(driver, "#map=16/34.83940/134.69390")
        placeholder = driver.find_element(By.ID, "query").get_attribute("placeholder")
        expect(placeholder == "場所を検索", f"the placeholder is {placeholder!r}")
        timing = type_query(driver, "カフェ")
        expect("language=ja" in timing["url"], "names are not asked in Japanese")
        expect(driver.find_elements(By.CSS_SELECTOR, "#results li"), "no café found by カフェ")
        expect(driver.find_element(By.ID, "toggle-view").text == "地図", "the toggle is not in Japanese")


def layout(size, name):
    with browser(size=size) as driver:
        open_page(driver, RAILWAY_SQUARE)
        type_query(driver, "cafe")
        if size == PHONE and driver.find_element(By.ID, "list-view").is_displayed():
            driver.find_element(By.ID, "toggle-view").click()
        open_pin(driver)
        sheet = wait(lambda: driver.find_element(By.CSS_SELECTOR, "#sheet:not([hidden])"), "the sheet")
        time.sleep(0.4)
        box = sheet.rect
        width, height = size
        if size == PHONE:
            expect(abs(box["y"] + box["height"] - height) <= 1, f"the sheet does not rest on the bottom: {box}")
            expect(box["width"] == width, f"the sheet is not the screen's width: {box}")
        else:
            expect(box["x"] > 300 and box["width"] < width / 2, f"the sheet is not beside the panel: {box}")
        if SCREENSHOTS:
            driver.save_screenshot(f"{SCREENSHOTS}/web-{name}.png")


@check
def desktop_layout():
    layout(DESKTOP, "desktop")


@check
def phone_layout():
    layout(PHONE, "phone")


def tiles_are_drawn():
    with browser() as driver:
        open_page(driver, "#map=3/60.17000/24.94000")
        basemap = api("/v1/basemap")["tiles"]
        expect(basemap and basemap["max_zoom"] == 2, f"/v1/basemap says {basemap}")
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded"), "a tile drawn")
        sources = [e.get_attribute("src") for e in driver.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded")]
        expect(all("/tiles/2/" in src for src in sources), f"the tiles drawn are not zoom 2's, enlarged: {sources}")
        expect(not driver.find_elements(By.CSS_SELECTOR, ".graticule-label"), "a graticule is drawn over the tiles")


failed = 0
for function in [tiles_are_drawn] if TILES else CHECKS:
    try:
        function()
        print(f"ok    {function.__name__}")
    except Exception as error:
        failed += 1
        print(f"FAIL  {function.__name__}: {error}")
sys.exit(1 if failed else 0)
