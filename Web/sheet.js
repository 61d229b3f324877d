// The detail sheet of one place, from /v1/spots/{ref}: its name in the browser's language,
// category, address, opening hours, phone, website, Wikipedia and Wikidata, directions and a
// link to OpenStreetMap. Its address is shareable: /#n123456 opens it.
import { api } from "./api.js";
import { t, categoryLook, nameLanguage, titleOf } from "./strings.js";

const osmTypes = { n: "node", w: "way", r: "relation" };

/** The Wikipedia article a `wikipedia` tag ("fi:Kiasma (rakennus)") names, or null. */
function wikipediaURL(tag) {
  const match = /^([a-z-]{2,12}):(.+)$/.exec(tag || "");
  if (!match) return null;
  return `https://${match[1]}.wikipedia.org/wiki/${encodeURIComponent(match[2].replaceAll(" ", "_"))}`;
}

/** A website tag as a link: "example.com" gains https://; anything else that is not http(s) is dropped. */
function websiteURL(tag) {
  if (!tag) return null;
  const url = /^[a-z][a-z0-9+.-]*:/i.test(tag) ? tag : `https://${tag}`;
  return /^https?:\/\//i.test(url) ? url : null;
}

/** The sheet element and what it shows; `onClose` runs when the user closes it. */
export class SheetView {
  constructor({ onOpen, onClose, userLocation }) {
    this.element = document.getElementById("sheet");
    this.body = document.getElementById("sheet-body");
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.userLocation = userLocation;
    this.ref = null;
    const close = document.getElementById("sheet-close");
    close.setAttribute("aria-label", t("close"));
    close.addEventListener("click", () => this.close());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.ref) this.close();
    });
  }

  /** Opens the sheet of `ref` (n123, w45, r6) and puts it in the page's address. */
  async open(ref) {
    this.ref = ref;
    if (location.hash !== `#${ref}`) history.replaceState(null, "", `#${ref}`);
    let spot;
    try {
      spot = await api(`/v1/spots/${ref}`, { language: nameLanguage });
    } catch (error) {
      this.show(ref, () => {
        const p = document.createElement("p");
        p.textContent = t("notFound");
        return [p];
      });
      return;
    }
    if (this.ref !== ref) return;
    this.show(ref, () => this.details(ref, spot));
    this.onOpen(ref, spot);
  }

  /** Closes the sheet and takes it out of the address. */
  close() {
    this.ref = null;
    this.element.hidden = true;
    this.element.removeAttribute("data-ref");
    history.replaceState(null, "", location.pathname + location.search);
    this.onClose();
  }

  show(ref, content) {
    this.body.replaceChildren(...content());
    this.element.dataset.ref = ref;
    this.element.hidden = false;
  }

  /** The sheet's elements for `spot`. */
  details(ref, spot) {
    const make = (tag, text, className) => {
      const element = document.createElement(tag);
      if (text) element.textContent = text;
      if (className) element.className = className;
      return element;
    };
    const link = (href, text, className) => {
      const a = make("a", text, className);
      a.href = href;
      if (/^https?:/.test(href)) {
        a.target = "_blank";
        a.rel = "noopener";
      }
      return a;
    };
    const title = make("h2", titleOf(spot));
    const category = make("p", categoryLook(spot.category).name, "category");
    const facts = make("dl");
    const fact = (label, value) => {
      if (!value) return;
      const dd = make("dd");
      if (typeof value === "string") dd.textContent = value;
      else dd.appendChild(value);
      facts.append(make("dt", label), dd);
    };
    fact(t("address"), spot.address_line);
    fact(t("hours"), spot.opening_hours);
    if (spot.phone) fact(t("phone"), link(`tel:${spot.phone.replace(/[^+\d]/g, "")}`, spot.phone));
    const website = websiteURL(spot.website);
    if (website) fact(t("website"), link(website, spot.website.replace(/^https?:\/\//, "")));
    const wikipedia = wikipediaURL(spot.wikipedia);
    if (wikipedia) fact(t("wikipedia"), link(wikipedia, spot.wikipedia));
    if (/^Q\d+$/.test(spot.wikidata || "")) {
      fact(t("wikidata"), link(`https://www.wikidata.org/wiki/${spot.wikidata}`, spot.wikidata));
    }
    const to = `${spot.lat},${spot.lon}`;
    const from = this.userLocation();
    const route = `${from ? from.join(",") : ""};${to}`;
    const actions = make("div", null, "actions");
    actions.append(
      link(`geo:${to}`, t("directions")),
      link(`https://www.openstreetmap.org/directions?route=${encodeURIComponent(route)}`, t("openDirections"), "secondary"),
      link(`https://www.openstreetmap.org/${osmTypes[ref[0]]}/${ref.slice(1)}`, t("viewOnOSM"), "secondary"),
    );
    return [title, category, facts, actions];
  }
}
