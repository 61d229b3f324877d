// The page's start: reads the index's description (/v1/index) and the basemap (/v1/basemap),
// makes the map, the search and the sheet, and asks for the user's location only when "Near
// me" is pressed. The page's address is shareable: /#n123 opens that place's sheet, and while
// no sheet is open it follows the map as /#map=zoom/lat/lon.
import { api } from "./api.js";
import { MapView } from "./map.js";
import { SearchView } from "./search.js";
import { SheetView } from "./sheet.js";
import { t, interfaceLanguage } from "./strings.js";

let userLocation = null;
let messageTimer = null;

/** Shows `text` for a few seconds. */
function showMessage(text) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => (message.hidden = true), 6000);
}

/** The shared address's place: "#n123" gives "n123". */
function refInAddress() {
  return /^#([nwr]\d+)$/.exec(location.hash)?.[1] ?? null;
}

/** The shared address's view: "#map=15/60.17/24.94" gives its zoom and centre. */
function viewInAddress() {
  const match = /^#map=(\d{1,2})\/(-?[\d.]+)\/(-?[\d.]+)$/.exec(location.hash);
  return match ? { zoom: Number(match[1]), centre: [Number(match[2]), Number(match[3])] } : null;
}

/** Writes the map's view into the address, unless a sheet's place is there. */
function followView(map) {
  if (refInAddress()) return;
  const c = map.getCenter();
  history.replaceState(null, "", `#map=${map.getZoom()}/${c.lat.toFixed(5)}/${c.lng.toFixed(5)}`);
}

async function start() {
  document.documentElement.lang = interfaceLanguage;
  const [index, basemap] = await Promise.all([api("/v1/index"), api("/v1/basemap")]);
  const sheet = new SheetView({
    onOpen: (ref, spot) => mapView.select(ref, spot),
    onClose: () => {
      mapView.select(null);
      followView(mapView.map);
    },
    userLocation: () => userLocation,
  });
  const mapView = new MapView(document.getElementById("map"), index, basemap, { onSpot: (ref) => sheet.open(ref) });
  const view = viewInAddress();
  if (view) mapView.map.setView(view.centre, view.zoom, { animate: false });
  mapView.map.on("moveend", () => followView(mapView.map));
  const search = new SearchView(mapView, index, {
    onSpot: (ref) => sheet.open(ref),
    userLocation: () => userLocation,
    showMessage,
  });

  const nearMe = document.getElementById("near-me");
  nearMe.textContent = t("nearMe");
  nearMe.addEventListener("click", () => {
    if (!navigator.geolocation) return showMessage(t("locationFailed"));
    showMessage(t("locating"));
    navigator.geolocation.getCurrentPosition(
      (position) => {
        userLocation = [position.coords.latitude, position.coords.longitude];
        document.getElementById("message").hidden = true;
        mapView.showUser(userLocation);
        mapView.map.setView(userLocation, Math.max(mapView.map.getZoom(), 15), { animate: false });
        if (search.text) search.run();
      },
      (error) => showMessage(error.code === error.PERMISSION_DENIED ? t("locationRefused") : t("locationFailed")),
      { enableHighAccuracy: false, timeout: 10000, maximumAge: 60000 },
    );
  });

  window.addEventListener("hashchange", () => {
    const ref = refInAddress();
    if (ref && ref !== sheet.ref) sheet.open(ref);
  });
  await search.run();
  const shared = refInAddress();
  if (shared) await sheet.open(shared);
}

start().catch((error) => showMessage(t("failed") + error.message));
