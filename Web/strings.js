// The page's words in English and Japanese, and how each category is shown: its group (the
// pin's colour), its glyph (the letters on the pin) and its name in both languages.

/** The interface's language: `?lang=` in the page's address, else the browser's first one. */
export const interfaceLanguage = (() => {
  const asked = new URLSearchParams(location.search).get("lang") || navigator.language || "en";
  return asked.toLowerCase().startsWith("ja") ? "ja" : "en";
})();

/** The language display names are asked in (the API's `language`): the browser's, or `?lang=`. */
export const nameLanguage = (() => {
  const asked = new URLSearchParams(location.search).get("lang") || navigator.language || "en";
  return /^[A-Za-z]{2,3}(-[A-Za-z]{4})?/.exec(asked)?.[0] || "en";
})();

const words = {
  en: {
    search: "Search places",
    nearMe: "Near me",
    list: "List",
    map: "Map",
    searchArea: "Search this area",
    close: "Close",
    directions: "Directions",
    openDirections: "Directions on openstreetmap.org",
    viewOnOSM: "View on OpenStreetMap",
    address: "Address",
    phone: "Phone",
    website: "Website",
    hours: "Opening hours",
    wikipedia: "Wikipedia",
    wikidata: "Wikidata",
    noResults: "No places found.",
    results: (n) => (n === 1 ? "1 place" : `${n} places`),
    browsing: (n) => (n === 1 ? "1 place nearby" : `${n} places nearby`),
    locating: "Finding your location…",
    locationRefused: "Location permission was refused: places are searched around the map's centre.",
    locationFailed: "Your location could not be found: places are searched around the map's centre.",
    failed: "The server did not answer: ",
    notFound: "This place is not in the index.",
    unnamed: "(no name)",
  },
  ja: {
    search: "場所を検索",
    nearMe: "現在地",
    list: "リスト",
    map: "地図",
    searchArea: "このエリアを検索",
    close: "閉じる",
    directions: "経路",
    openDirections: "openstreetmap.org で経路を表示",
    viewOnOSM: "OpenStreetMap で見る",
    address: "住所",
    phone: "電話",
    website: "ウェブサイト",
    hours: "営業時間",
    wikipedia: "ウィキペディア",
    wikidata: "ウィキデータ",
    noResults: "見つかりませんでした。",
    results: (n) => `${n} 件`,
    browsing: (n) => `付近の ${n} 件`,
    locating: "現在地を確認しています…",
    locationRefused: "位置情報の利用が許可されませんでした。地図の中心の周辺を検索します。",
    locationFailed: "現在地を取得できませんでした。地図の中心の周辺を検索します。",
    failed: "サーバーが応答しませんでした: ",
    notFound: "この場所はインデックスにありません。",
    unnamed: "(名称なし)",
  },
};

/** The interface's word for `key`, called with `args` when it is a function of them. */
export function t(key, ...args) {
  const word = words[interfaceLanguage][key];
  return typeof word === "function" ? word(...args) : word;
}

/** Each group's pin colour. */
export const groupColours = {
  food: "#d9480f",
  shop: "#9c36b5",
  stay: "#1971c2",
  travel: "#495057",
  culture: "#c2255c",
  health: "#e03131",
  service: "#5f3dc4",
  leisure: "#2f9e44",
  nature: "#087f5b",
};

// category: [group, glyph, English, Japanese]
const categories = {
  airport: ["travel", "✈", "Airport", "空港"],
  amusementPark: ["leisure", "Am", "Amusement park", "遊園地"],
  animalService: ["service", "Vt", "Animal service", "動物病院・ペット"],
  aquarium: ["culture", "Aq", "Aquarium", "水族館"],
  artwork: ["culture", "Ar", "Artwork", "パブリックアート"],
  atm: ["service", "¥", "ATM", "ATM"],
  automotiveRepair: ["service", "Ca", "Car repair", "自動車整備"],
  bakery: ["food", "Bk", "Bakery", "パン屋"],
  bank: ["service", "Bn", "Bank", "銀行"],
  baseball: ["leisure", "Bb", "Baseball", "野球場"],
  basketball: ["leisure", "Bb", "Basketball", "バスケットボール"],
  beach: ["nature", "Be", "Beach", "ビーチ"],
  beauty: ["shop", "Bt", "Beauty", "美容"],
  bicycleRental: ["travel", "Bi", "Bicycle rental", "レンタサイクル"],
  bowling: ["leisure", "Bw", "Bowling", "ボウリング"],
  brewery: ["food", "Br", "Brewery", "ブルワリー"],
  cafe: ["food", "C", "Café", "カフェ"],
  campground: ["stay", "Cp", "Campground", "キャンプ場"],
  carRental: ["travel", "Cr", "Car rental", "レンタカー"],
  castle: ["culture", "Cs", "Castle", "城"],
  communityCenter: ["service", "Cc", "Community centre", "公民館"],
  conventionCenter: ["culture", "Cv", "Convention centre", "コンベンションセンター"],
  distillery: ["food", "Ds", "Distillery", "蒸留所"],
  drinkingWater: ["service", "W", "Drinking water", "水飲み場"],
  evCharger: ["travel", "Ev", "EV charger", "EV充電"],
  fairground: ["leisure", "Fg", "Fairground", "催事場"],
  fireStation: ["service", "Fi", "Fire station", "消防署"],
  fishing: ["leisure", "Fs", "Fishing", "釣り"],
  fitnessCenter: ["leisure", "Gy", "Fitness centre", "フィットネス"],
  foodMarket: ["shop", "Mk", "Food market", "食料品店"],
  fortress: ["culture", "Ft", "Fortress", "要塞"],
  gasStation: ["travel", "Gs", "Gas station", "ガソリンスタンド"],
  goKart: ["leisure", "Gk", "Go-kart", "ゴーカート"],
  golf: ["leisure", "Go", "Golf", "ゴルフ"],
  hiking: ["nature", "Hk", "Hiking", "ハイキング"],
  hospital: ["health", "H", "Hospital", "病院"],
  hotel: ["stay", "Ht", "Hotel", "ホテル"],
  kayaking: ["leisure", "Ky", "Kayaking", "カヤック"],
  landmark: ["culture", "Lm", "Landmark", "名所"],
  laundry: ["service", "Ld", "Laundry", "コインランドリー"],
  library: ["culture", "Lb", "Library", "図書館"],
  mailbox: ["service", "✉", "Mailbox", "ポスト"],
  marina: ["travel", "Ma", "Marina", "マリーナ"],
  miniGolf: ["leisure", "Mg", "Mini golf", "ミニゴルフ"],
  movieTheater: ["culture", "Mv", "Cinema", "映画館"],
  museum: ["culture", "M", "Museum", "博物館・美術館"],
  musicVenue: ["culture", "♪", "Music venue", "ライブハウス"],
  nationalMonument: ["culture", "Nm", "National monument", "国定記念物"],
  nationalPark: ["nature", "Np", "National park", "国立公園"],
  nightlife: ["food", "Bar", "Nightlife", "バー・ナイトライフ"],
  park: ["nature", "P", "Park", "公園"],
  parking: ["travel", "Pk", "Parking", "駐車場"],
  pharmacy: ["health", "Rx", "Pharmacy", "薬局"],
  placeOfWorship: ["culture", "Pw", "Place of worship", "寺社・教会"],
  planetarium: ["culture", "Pl", "Planetarium", "プラネタリウム"],
  police: ["service", "Po", "Police", "警察"],
  postOffice: ["service", "〒", "Post office", "郵便局"],
  publicTransport: ["travel", "T", "Public transport", "公共交通"],
  restaurant: ["food", "R", "Restaurant", "レストラン"],
  restroom: ["service", "WC", "Restroom", "トイレ"],
  rockClimbing: ["leisure", "Rc", "Climbing", "クライミング"],
  rvPark: ["stay", "Rv", "RV park", "オートキャンプ場"],
  school: ["service", "Sc", "School", "学校"],
  skatePark: ["leisure", "Sk", "Skate park", "スケートパーク"],
  skating: ["leisure", "Sk", "Skating", "スケート"],
  skiing: ["leisure", "Ski", "Skiing", "スキー"],
  soccer: ["leisure", "Fb", "Football", "サッカー"],
  spa: ["leisure", "Sp", "Spa", "スパ・温泉"],
  stadium: ["leisure", "St", "Stadium", "スタジアム"],
  store: ["shop", "Sh", "Store", "店舗"],
  surfing: ["leisure", "Sf", "Surfing", "サーフィン"],
  swimming: ["leisure", "Sw", "Swimming", "プール"],
  tennis: ["leisure", "Tn", "Tennis", "テニス"],
  theater: ["culture", "Th", "Theatre", "劇場"],
  touristInformation: ["travel", "i", "Tourist information", "観光案内所"],
  townHall: ["service", "TH", "Town hall", "役所"],
  university: ["service", "U", "University", "大学"],
  viewpoint: ["nature", "V", "Viewpoint", "展望台"],
  volleyball: ["leisure", "Vb", "Volleyball", "バレーボール"],
  winery: ["food", "Wi", "Winery", "ワイナリー"],
  zoo: ["leisure", "Z", "Zoo", "動物園"],
};

/** What a result is called: its name, else (an address point, a place with no name) its address. */
export function titleOf(spot) {
  return spot.display_name || spot.name || spot.address_line || t("unnamed");
}

/** How `category` is shown: its name in the interface's language, glyph and colour. */
export function categoryLook(category) {
  const entry = categories[category];
  if (!entry) return { name: category || "", glyph: "•", colour: "#868e96" };
  const [group, glyph, en, ja] = entry;
  return { name: interfaceLanguage === "ja" ? ja : en, glyph, colour: groupColours[group] };
}
