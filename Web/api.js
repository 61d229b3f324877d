// The page's calls to the server's API (docs/serve.md): the same routes any client uses.

/** The address of `path` with `parameters`, empty ones left out. */
export function apiURL(path, parameters = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== "") query.set(name, value);
  }
  return query.size ? `${path}?${query}` : path;
}

/** The JSON answer of `path` with `parameters` (empty ones left out); throws on a refusal. */
export async function api(path, parameters = {}, signal) {
  const response = await fetch(apiURL(path, parameters), { signal });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || body.message || `${response.status} ${response.statusText}`);
  return body;
}

/** A result's OSM reference as the API writes it: n123, w45, r6. */
export function refOf(spot) {
  return spot.osm_type[0] + spot.osm_id;
}

/** Metres between two [lat, lon] points (haversine). */
export function metresBetween([lat1, lon1], [lat2, lon2]) {
  const radians = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * radians) / 2) ** 2 +
    Math.cos(lat1 * radians) * Math.cos(lat2 * radians) * Math.sin(((lon2 - lon1) * radians) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A distance as people read it: 35 m, 1.2 km, 14 km. */
export function distanceText(metres) {
  if (metres < 1000) return `${Math.round(metres)} m`;
  return metres < 10000 ? `${(metres / 1000).toFixed(1)} km` : `${Math.round(metres / 1000)} km`;
}
