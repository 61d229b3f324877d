// The map: Leaflet over the index's bounding box, a background drawn by the page when there
// are no tiles (the box, a graticule with labels, a scale bar), the viewport's clusters and
// pins from /v1/clusters while browsing, and a text search's results clustered in the page by
// Leaflet.markercluster.
import { api, refOf } from "./api.js";
import { categoryLook } from "./strings.js";

/** A pin for `spot`, coloured by its category's group, with its glyph. */
function pinIcon(spot, selected) {
  const look = categoryLook(spot.category);
  const html = `<div class="pin${selected ? " selected" : ""}" style="background:${look.colour}"><span>${look.glyph}</span></div>`;
  return L.divIcon({ className: "spot-pin", html, iconSize: [28, 28], iconAnchor: [14, 28] });
}

/** A round cluster showing `count`, sized by it. */
function clusterIcon(count, kind) {
  const size = count < 10 ? 34 : count < 100 ? 40 : count < 1000 ? 48 : 56;
  return L.divIcon({
    className: `spot-cluster ${kind}`,
    html: `<div class="cluster ${kind}" data-count="${count}">${count}</div>`,
    iconSize: [size, size],
  });
}

/** A step of whole, halves, fifths or tenths of a power of ten giving about `lines` lines over `span`. */
function graticuleStep(span, lines) {
  const raw = span / lines;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

/** The map in `element`, over `index` (the /v1/index answer), with `basemap` (/v1/basemap). */
export class MapView {
  constructor(element, index, basemap, { onSpot }) {
    this.onSpot = onSpot;
    const [west, south, east, north] = index.bbox || [-180, -60, 180, 75];
    this.indexBounds = L.latLngBounds([south, west], [north, east]);
    // The view first: layers added to a map without one cannot be drawn.
    this.map = L.map(element, { zoomControl: false, maxZoom: 19, worldCopyJump: true });
    L.control.zoom({ position: "topright" }).addTo(this.map);
    this.map.fitBounds(this.indexBounds.pad(0.05));
    this.map.attributionControl.setPrefix("Leaflet").addAttribution("Data © OpenStreetMap contributors (ODbL)");
    L.control.scale({ position: "topright" }).addTo(this.map);
    if (basemap.tiles) {
      L.tileLayer(basemap.tiles.url, {
        attribution: basemap.tiles.attribution,
        maxNativeZoom: basemap.tiles.max_zoom,
        maxZoom: 19,
      }).addTo(this.map);
    } else {
      this.graticule = L.layerGroup().addTo(this.map);
      this.map.on("moveend", () => this.drawGraticule());
      this.drawGraticule();
    }
    L.rectangle(this.indexBounds, { color: "#868e96", weight: 1, dashArray: "4 4", fill: false, interactive: false }).addTo(
      this.map,
    );
    this.browseLayer = L.layerGroup().addTo(this.map);
    this.resultLayer = L.markerClusterGroup({
      showCoverageOnHover: false,
      maxClusterRadius: 40,
      disableClusteringAtZoom: 18,
      iconCreateFunction: (cluster) => clusterIcon(cluster.getChildCount(), "results"),
    });
    this.markers = new Map();
    this.selected = null;
  }

  /** The map's centre as [lat, lon]. */
  centre() {
    const c = this.map.getCenter();
    return [c.lat, c.lng];
  }

  /** The viewport as the API's bbox: "west,south,east,north". */
  bbox() {
    const b = this.map.getBounds();
    const clamp = (value, limit) => Math.max(-limit, Math.min(limit, value));
    return [clamp(b.getWest(), 180), clamp(b.getSouth(), 85), clamp(b.getEast(), 180), clamp(b.getNorth(), 85)]
      .map((v) => v.toFixed(6))
      .join(",");
  }

  /** The /v1/clusters request of the viewport, of `categories` only when given. */
  clusterParameters(categories) {
    return { bbox: this.bbox(), zoom: Math.round(this.map.getZoom()), categories: categories.join(",") };
  }

  /** Draws the clusters and single pins of `parameters` (`clusterParameters`) from /v1/clusters. */
  async browse(parameters, signal) {
    const answer = await api("/v1/clusters", parameters, signal);
    this.browseLayer.clearLayers();
    this.markers.clear();
    for (const item of answer.results) {
      const at = [item.lat, item.lon];
      if (item.cluster) {
        const marker = L.marker(at, { icon: clusterIcon(item.point_count, "browse"), keyboard: false });
        marker.on("click", () => this.map.setView(at, Math.min(item.expansion_zoom, this.map.getMaxZoom())));
        this.browseLayer.addLayer(marker);
      } else {
        this.browseLayer.addLayer(this.pin(item));
      }
    }
    return answer.results;
  }

  /** Shows a text search's `results` as pins, clustered in the page; the browse pins go. */
  showResults(results) {
    this.browseLayer.clearLayers();
    this.resultLayer.clearLayers();
    this.markers.clear();
    this.resultLayer.addLayers(results.map((spot) => this.pin(spot)));
    if (!this.map.hasLayer(this.resultLayer)) this.resultLayer.addTo(this.map);
  }

  /** Removes a text search's pins. */
  clearResults() {
    this.resultLayer.clearLayers();
    this.resultLayer.remove();
    this.markers.clear();
  }

  /** When the best result is out of view, shows it beside `centre`, where it was searched around. */
  reveal(results, centre) {
    if (!results.length) return;
    const best = [results[0].lat, results[0].lon];
    if (this.map.getBounds().contains(best)) return;
    this.map.fitBounds(L.latLngBounds([best, centre]).pad(0.2), { maxZoom: 17, animate: false });
  }

  /** Marks `ref`'s pin as the one whose sheet is open (none when null), and shows it. */
  select(ref, spot) {
    const previous = this.markers.get(this.selected);
    if (previous) previous.setIcon(pinIcon(previous.spot, false));
    this.selected = ref;
    const marker = this.markers.get(ref);
    if (marker) marker.setIcon(pinIcon(marker.spot, true));
    if (spot && !this.map.getBounds().contains([spot.lat, spot.lon])) {
      this.map.setView([spot.lat, spot.lon], Math.max(this.map.getZoom(), 16));
    }
  }

  /** Shows the user's location as a dot. */
  showUser(at) {
    this.userDot ??= L.marker(at, {
      icon: L.divIcon({ className: "", html: '<div class="user-dot"></div>', iconSize: [20, 20] }),
      interactive: false,
    }).addTo(this.map);
    this.userDot.setLatLng(at);
  }

  /** A marker for `spot` that opens its sheet, kept by its reference for `select`. */
  pin(spot) {
    const ref = refOf(spot);
    const marker = L.marker([spot.lat, spot.lon], {
      icon: pinIcon(spot, ref === this.selected),
      title: spot.display_name || spot.name || "",
    });
    marker.spot = spot;
    marker.on("click", () => this.onSpot(ref));
    marker.on("add", () => marker.getElement()?.setAttribute("data-ref", ref));
    this.markers.set(ref, marker);
    return marker;
  }

  /** Lines of latitude and longitude over the viewport, labelled at its left and bottom edges. */
  drawGraticule() {
    this.graticule.clearLayers();
    const b = this.map.getBounds();
    const step = graticuleStep(Math.max(b.getEast() - b.getWest(), b.getNorth() - b.getSouth()), 6);
    const digits = Math.max(0, -Math.floor(Math.log10(step)));
    const style = { color: "#adb5bd", weight: 1, opacity: 0.6, interactive: false };
    const label = (at, text, anchor) =>
      L.marker(at, {
        icon: L.divIcon({ className: "graticule-label", html: text, iconSize: null, iconAnchor: anchor }),
        interactive: false,
        keyboard: false,
      });
    for (let lat = Math.ceil(b.getSouth() / step) * step; lat <= b.getNorth(); lat += step) {
      this.graticule.addLayer(L.polyline([[lat, b.getWest()], [lat, b.getEast()]], style));
      this.graticule.addLayer(label([lat, b.getWest()], `${lat.toFixed(digits)}°`, [-4, 12]));
    }
    for (let lon = Math.ceil(b.getWest() / step) * step; lon <= b.getEast(); lon += step) {
      this.graticule.addLayer(L.polyline([[b.getSouth(), lon], [b.getNorth(), lon]], style));
      this.graticule.addLayer(label([b.getSouth(), lon], `${lon.toFixed(digits)}°`, [-4, 40]));
    }
  }
}
