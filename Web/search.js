// The search bar, the category chips and the list. Text is searched as it is typed (debounced)
// around the map's centre through /v1/search; with no text the map browses /v1/clusters. Each
// search's timings (sent, drawn) are kept in `window.spotsTimings` for Benchmarks/web.sh.
import { api, apiURL, refOf, metresBetween, distanceText } from "./api.js";
import { t, categoryLook, nameLanguage, titleOf } from "./strings.js";

/** Milliseconds of quiet typing before a search is sent. */
const debounceMilliseconds = 150;
/** The most results one text search shows. */
const resultLimit = 300;
/** The most places the list shows while browsing. */
const browseListLimit = 100;

window.spotsTimings = [];

/** The search bar, chips and list over `mapView`; `onSpot(ref)` opens a sheet. */
export class SearchView {
  constructor(mapView, index, { onSpot, userLocation, showMessage }) {
    this.mapView = mapView;
    this.onSpot = onSpot;
    this.userLocation = userLocation;
    this.showMessage = showMessage;
    this.categories = new Set();
    this.results = [];
    this.searchedAt = null;
    this.pending = null;
    this.timer = null;
    this.input = document.getElementById("query");
    this.list = document.getElementById("results");
    this.status = document.getElementById("list-status");
    this.listView = document.getElementById("list-view");
    this.toggle = document.getElementById("toggle-view");
    this.searchArea = document.getElementById("search-area");
    this.input.placeholder = t("search");
    this.input.setAttribute("aria-label", t("search"));
    this.searchArea.textContent = t("searchArea");
    this.drawChips(index.categories || {});
    this.showList(false);

    this.input.addEventListener("input", () => this.typed());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown") this.focusItem(0, event);
    });
    document.getElementById("search").addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(this.timer);
      this.run();
    });
    this.toggle.addEventListener("click", () => this.showList(this.listView.hidden));
    this.searchArea.addEventListener("click", () => this.run({ inView: true }));
    this.list.addEventListener("keydown", (event) => this.listKey(event));
    mapView.map.on("moveend", () => this.moved());
  }

  /** The text as typed, trimmed. */
  get text() {
    return this.input.value.trim();
  }

  /** A chip for each category the index holds, most spots first. */
  drawChips(counts) {
    const chips = document.getElementById("chips");
    const names = Object.keys(counts)
      .filter((name) => name !== "(none)")
      .sort((a, b) => counts[b] - counts[a] || a.localeCompare(b));
    for (const name of names) {
      const chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      chip.dataset.category = name;
      chip.setAttribute("aria-pressed", "false");
      chip.textContent = categoryLook(name).name;
      chip.addEventListener("click", () => {
        const on = !this.categories.has(name);
        if (on) this.categories.add(name);
        else this.categories.delete(name);
        chip.setAttribute("aria-pressed", String(on));
        this.run();
      });
      chips.appendChild(chip);
    }
  }

  typed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), debounceMilliseconds);
  }

  /** Shows the list (true) or the map alone (false). */
  showList(shown) {
    this.listView.hidden = !shown;
    document.getElementById("panel").classList.toggle("listing", shown);
    this.toggle.textContent = shown ? t("map") : t("list");
    this.toggle.setAttribute("aria-expanded", String(shown));
    if (shown && !this.text) this.run();
  }

  /** After the map moved: browsing follows it; a text search offers "Search this area". */
  moved() {
    if (!this.text) {
      this.browse();
      return;
    }
    const [x, y] = [this.mapView.map.getSize().x, this.mapView.map.getSize().y];
    const here = this.mapView.map.latLngToContainerPoint(this.searchedAt || this.mapView.centre());
    this.searchArea.hidden = Math.abs(here.x - x / 2) < x / 4 && Math.abs(here.y - y / 2) < y / 4;
  }

  /** Searches now: the text near the map's centre (within the view when `inView`), or browses. */
  async run({ inView = false } = {}) {
    this.searchArea.hidden = true;
    if (!this.text) {
      this.mapView.clearResults();
      await this.browse();
      return;
    }
    const centre = this.mapView.centre();
    const parameters = {
      q: this.text,
      near: centre.map((v) => v.toFixed(6)).join(","),
      bbox: inView ? this.mapView.bbox() : undefined,
      categories: [...this.categories].join(","),
      language: nameLanguage,
      limit: resultLimit,
    };
    const answer = await this.fetchLatest("/v1/search", parameters);
    if (!answer) return;
    this.results = answer.results;
    this.mapView.showResults(this.results);
    this.mapView.reveal(this.results, centre);
    this.searchedAt = this.mapView.centre();
    this.searchArea.hidden = true;
    this.drawList(this.results, t("results", this.results.length), centre);
    if (matchMedia("(min-width: 641px)").matches && this.listView.hidden) this.showList(true);
    await this.drawn(answer.timing);
  }

  /** While no text is typed: the map's clusters and pins, and the nearest places for the list. */
  async browse() {
    const categories = [...this.categories];
    const clusters = this.mapView.clusterParameters(categories);
    const timing = { query: "", url: apiURL("/v1/clusters", clusters), sent: performance.now() };
    const signal = this.replacePending();
    try {
      const jobs = [this.mapView.browse(clusters, signal)];
      if (!this.listView.hidden) {
        const near = this.mapView.centre().map((v) => v.toFixed(6)).join(",");
        const parameters = { near, bbox: this.mapView.bbox(), categories: categories.join(","), limit: browseListLimit };
        jobs.push(api("/v1/search", { ...parameters, language: nameLanguage }, signal));
      }
      const [, listed] = await Promise.all(jobs);
      if (listed) this.drawList(listed.results, t("browsing", listed.results.length), this.mapView.centre());
    } catch (error) {
      if (error.name !== "AbortError") this.showMessage(t("failed") + error.message);
      return;
    }
    await this.drawn(timing);
    // When the page is first usable (map and pins drawn), in milliseconds since navigation.
    window.spotsReadyAt ??= timing.drawn;
    document.body.dataset.ready = "true";
  }

  /** The answer of `path` unless a newer request replaced it meanwhile; its timing attached. */
  async fetchLatest(path, parameters) {
    const signal = this.replacePending();
    const timing = { query: parameters.q, sent: performance.now() };
    try {
      timing.url = apiURL(path, parameters);
      return { ...(await api(path, parameters, signal)), timing };
    } catch (error) {
      if (error.name !== "AbortError") this.showMessage(t("failed") + error.message);
      return null;
    }
  }

  replacePending() {
    this.pending?.abort();
    this.pending = new AbortController();
    return this.pending.signal;
  }

  /** Records when what `timing` was sent for is on screen (the next frame). */
  async drawn(timing) {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    timing.drawn = performance.now();
    window.spotsTimings.push(timing);
  }

  /** Fills the list with `spots` under `heading`, each with its distance from the user, else from `centre`. */
  drawList(spots, heading, centre) {
    this.status.textContent = spots.length ? heading : t("noResults");
    const from = this.userLocation() || centre;
    this.list.replaceChildren(
      ...spots.map((spot) => {
        const item = document.createElement("li");
        item.tabIndex = -1;
        item.dataset.ref = refOf(spot);
        const look = categoryLook(spot.category);
        const distance = distanceText(metresBetween(from, [spot.lat, spot.lon]));
        item.innerHTML = `<div class="pin" style="background:${look.colour}"><span>${look.glyph}</span></div><div>
          <div class="name"></div><div class="meta"></div><div class="address"></div></div>`;
        item.querySelector(".name").textContent = titleOf(spot);
        item.querySelector(".meta").textContent = `${look.name} · ${distance}`;
        item.querySelector(".address").textContent = spot.address_line || "";
        item.addEventListener("click", () => this.onSpot(item.dataset.ref));
        return item;
      }),
    );
    if (this.list.firstChild) this.list.firstChild.tabIndex = 0;
  }

  /** Up and down move through the list, Enter opens a place, Escape goes back to the bar. */
  listKey(event) {
    const items = [...this.list.children];
    const at = items.indexOf(document.activeElement);
    if (event.key === "ArrowDown") this.focusItem(at + 1, event);
    else if (event.key === "ArrowUp") {
      if (at <= 0) this.input.focus();
      else this.focusItem(at - 1, event);
      event.preventDefault();
    } else if (event.key === "Enter" && at >= 0) this.onSpot(items[at].dataset.ref);
    else if (event.key === "Escape") this.input.focus();
  }

  focusItem(position, event) {
    const items = this.list.children;
    if (!items.length) return;
    if (this.listView.hidden) this.showList(true);
    const item = items[Math.min(position, items.length - 1)];
    for (const other of items) other.tabIndex = -1;
    item.tabIndex = 0;
    item.focus();
    event.preventDefault();
  }
}
