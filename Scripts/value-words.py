#!/usr/bin/env python3
"""Build Pipelines/value-words.json: search words for OSM amenity=* / tourism=* values and
cuisine=* values in 49 languages, from the iD editor's tagging schema plus a hand review of
the first 20 (REVIEWED) and a mechanical one of the rest (NAMES_ONLY).

Source
    Any clone of https://github.com/openstreetmap/id-tagging-schema (ISC licence,
    Copyright (c) 2017, iD Contributors). The file in the repo was made from the release tag
    v7.1.1 (commit e45ecc0e79ca054172d7e1df6318a94a635b8030, package.json version 7.1.1).
    Either a checked-out work tree:

        git clone --branch v7.1.1 https://github.com/openstreetmap/id-tagging-schema /tmp/id-schema
        python3 Scripts/value-words.py --source /tmp/id-schema

    or a bare git directory (such as the snapshot the `fetch` tool puts under
    /work/.mirror/openstreetmap+id-tagging-schema/repo), read with `git show REV:path`:

        python3 Scripts/value-words.py \\
            --source /work/.mirror/openstreetmap+id-tagging-schema/repo --rev v7.1.1

    --rev defaults to v7.1.1 for a git directory; a work tree is read as checked out (its commit
    from `git rev-parse HEAD` when it is a git checkout). Only python3 and git are needed.
    Options: --categories (default Pipelines/categories.json), --review (default
    Scripts/value-words-review.json), --out (default Pipelines/value-words.json).

What is read
    dist/translations/<code>.json (or <code>.min.json), key <code>.presets:
      presets["<key>/<value>"] -> name, aliases, terms (English from en.json)
      fields.cuisine.options    -> the labels of the cuisine field's values
    and package.json for the version. Locales: nb merges iD's `nb` and `no` (iD's `nb` has few
    presets); zh is `zh-CN`; pt is `pt`, with `pt-BR` only where `pt` has no entry.

What is written
    For every key=value of Pipelines/categories.json (keys with ';' skipped), per language: the
    preset's name, aliases and terms, split at '/' and commas, parenthesised parts removed,
    Unicode-lowercased (Turkish I/İ kept apart), NFC, soft hyphens and zero-width characters
    removed, trimmed, deduplicated, words with no letter dropped. For every cuisine value: the
    option labels, with the review's generic words ("food", "кухня") removed from
    space-separated labels. Then Scripts/value-words-review.json is applied:
      presets         iD presets that stand for a value with none of its own (deprecated tags)
      values          {key=value: {lang: {"drop": [...], "add": [...]}}}
      cuisine.values  the same per cuisine value; a cuisine value iD lacks is all "add"
      cuisine.generic generic words per language
      shared          words accepted under more than one value (all words of a pair of values,
                      or one word in one language)
      joins           values that everyday speech does not tell apart (bar and pub): each value
                      of a group gets the words of the others too, after its own
      purposes        words that name what a place is for, and the place values kept for it:
                      a cuisine value's words ("coffee", "Kaffee" for cuisine=coffee_shop) or
                      words given per language ("beer"), added to each value listed
                      (amenity=cafe), after its own and its joins' words
    Reported on stderr: values or languages iD lacks ("note:"), a drop that matches nothing or
    an add already there ("review:", the review went stale after a new iD version), and a word
    under several values not listed in "shared" ("collision"). Output is deterministic: sorted
    keys, word lists in iD's order then the review's additions, indent 2, UTF-8.

Updating to a newer iD version
    Run with the new --rev, read the "review:" and "collision" lines and the diff of the output,
    and edit the review file (new iD terms appear in the output until the review drops them).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import unicodedata

REVIEWED = ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "cs", "sv",
            "nb", "da", "fi", "ru", "uk", "tr", "ar", "zh", "ja", "ko"]
# Every other language iD translates for at least half of the values (Pipelines/categories.json),
# and Bulgarian and Basque, which come close. No one reviewed their words by hand: they take
# iD's preset names and aliases, and those of its terms (the synonyms people type: "patika",
# "nhà thuốc", but also broader words: "money", "food") that no reviewed language lists under
# another value or as a cuisine; then a word that still falls under more than one value in its
# language is dropped unless the review accepts it ("shared"), as a word naming a broader place
# would be.
NAMES_ONLY = ["af", "ast", "bg", "br", "ca", "cy", "el", "eo", "et", "eu", "fa", "gan", "gl", "he",
              "hr", "hu", "id", "is", "kk", "lt", "lv", "mk", "ro", "sk", "sl", "sr", "th", "vi",
              "yue"]
LANGUAGES = REVIEWED + NAMES_ONLY
# A one-word term of a NAMES_ONLY language needs this many letters: the shorter ones ("gas",
# "pos", "font") are also the first letters of names in every other language, and a query that
# is a category word asks for the category before the names it begins.
TERM_MINIMUM_LETTERS = 6
# Languages that write compounds as one word ("Taidemuseo", "Stadtapotheke"): a word of theirs
# of at least this many letters also matches at the end of a longer name word.
COMPOUNDS = {"languages": ["da", "de", "fi", "nb", "nl", "sv"], "minimum_letters": 5}
# iD locale codes per language: (merged codes, fallback codes used only when the merged ones
# have no entry for a preset or field option).
ID_CODES = {
    "nb": (["nb", "no"], []),
    "zh": (["zh-CN"], []),
    "pt": (["pt"], ["pt-BR"]),
}
DEFAULT_REV = "v7.1.1"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Source:
    """Reads files of id-tagging-schema from a work tree or a (bare) git directory."""

    def __init__(self, path, rev):
        self.path = path
        self.is_tree = os.path.isdir(os.path.join(path, "dist", "translations"))
        self.rev = rev
        self.commit = None
        if self.is_tree:
            self.rev = None
            try:
                self.commit = subprocess.run(
                    ["git", "-C", path, "rev-parse", "HEAD"], check=True,
                    capture_output=True, text=True).stdout.strip()
                self.rev = subprocess.run(
                    ["git", "-C", path, "describe", "--tags", "--always"], check=True,
                    capture_output=True, text=True).stdout.strip()
            except (OSError, subprocess.CalledProcessError):
                pass
        else:
            self.rev = rev or DEFAULT_REV
            self.commit = self._git("rev-parse", self.rev + "^{commit}").strip()

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir=" + self.path, *args], check=True,
                              capture_output=True, text=True).stdout

    def read(self, rel):
        """The text of rel, or None when it does not exist."""
        if self.is_tree:
            full = os.path.join(self.path, rel)
            if not os.path.exists(full):
                return None
            with open(full, encoding="utf-8") as f:
                return f.read()
        try:
            return self._git("show", "%s:%s" % (self.rev, rel))
        except subprocess.CalledProcessError:
            return None

    def translation(self, code):
        for name in ("%s.json" % code, "%s.min.json" % code):
            text = self.read("dist/translations/" + name)
            if text is not None:
                return json.loads(text).get(code, {}).get("presets", {})
        return None


INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))


def norm(word, lang=None):
    """Unicode-lowercased (Turkish dotted and dotless I kept apart), NFC, soft hyphens and
    zero-width characters removed, trimmed, inner whitespace collapsed; '' if it has no
    letter."""
    w = unicodedata.normalize("NFC", word).translate(INVISIBLE)
    if lang == "tr":
        w = w.replace("I", "ı").replace("İ", "i")
    w = w.lower().replace("i\u0307", "i")
    w = re.sub(r"\s+", " ", w).strip(" \t\"'“”«».,;:!?")
    if not any(unicodedata.category(c).startswith("L") for c in w):
        return ""
    return w


def split_phrase(text, lang=None):
    """A name, alias or term split into candidate words: at '/', commas (also Arabic and
    CJK ones) and semicolons, with parenthesised parts removed."""
    text = re.sub(r"\([^)]*\)|（[^）]*）", " ", text)
    out = []
    for part in re.split(r"[/／,，、،;；]", text):
        w = norm(part, lang)
        if w:
            out.append(w)
    return out


def add_unique(seq, words):
    for w in words:
        if w and w not in seq:
            seq.append(w)


def value_keys(categories):
    keys = []
    for key in sorted(categories["tags"]):
        for value in sorted(categories["tags"][key]):
            if ";" in value:
                continue
            keys.append("%s=%s" % (key, value))
    return keys


def load_locales(src):
    locales = {}
    for lang in LANGUAGES:
        merged, fallback = ID_CODES.get(lang, ([lang], []))
        tables = []
        for group in (merged, fallback):
            loaded = []
            for code in group:
                t = src.translation(code)
                if t is None:
                    print("warning: no translation file for %s" % code, file=sys.stderr)
                else:
                    loaded.append((code, t))
            tables.append(loaded)
        locales[lang] = tables
    return locales


def preset_words(tables, preset_ids, lang, parts=("name", "aliases", "terms")):
    """Candidate words of the presets in one language from the given parts: names (split at
    '/'), aliases, terms (wildcard terms such as "művész*" left out)."""
    merged, fallback = tables
    for group in (merged, fallback):
        words = []
        for _code, t in group:
            for pid in preset_ids:
                p = t.get("presets", {}).get(pid)
                if not p:
                    continue
                if "name" in parts and p.get("name"):
                    add_unique(words, split_phrase(p["name"], lang))
                for alias in (p.get("aliases", []) or []) if "aliases" in parts else []:
                    add_unique(words, split_phrase(alias, lang))
                terms = (p.get("terms", []) or []) if "terms" in parts else []
                if isinstance(terms, str):
                    terms = terms.split(",")
                for term in terms:
                    add_unique(words, [w for w in split_phrase(term, lang) if "*" not in w])
        if words:
            return words
    return []


def cuisine_labels(tables, value):
    merged, fallback = tables
    for group in (merged, fallback):
        labels = []
        for _code, t in group:
            opt = t.get("fields", {}).get("cuisine", {}).get("options", {}).get(value)
            if isinstance(opt, dict):
                opt = opt.get("title") or opt.get("label")
            if isinstance(opt, str) and opt.strip() and opt not in labels:
                labels.append(opt)
        if labels:
            return labels
    return []


def strip_generic(word, generic):
    """"chinese food" -> "chinese": generic words dropped from a space-separated label."""
    tokens = word.split(" ")
    kept = [t for t in tokens if t not in generic]
    if kept and len(kept) < len(tokens):
        return " ".join(kept)
    return word


def raw_values(locales, keys, presets, parts_of):
    """{key=value: {lang: [words]}} straight from iD, before the review, taking the preset
    parts `parts_of(lang)` names."""
    out = {}
    for vk in keys:
        key, value = vk.split("=", 1)
        ids = presets.get(vk, ["%s/%s" % (key, value)])
        out[vk] = {lang: preset_words(locales[lang], ids, lang, parts_of(lang)) for lang in LANGUAGES}
    return out


def unclaimed_terms(terms, names, values, cuisine, accepted):
    """The NAMES_ONLY terms without those that name something else: a word that a REVIEWED
    language lists under another value or as a cuisine word (the reviewed words say what a word
    names: "pizza", "bistro", "bar"), or that its own language's names, aliases or terms list
    under another value, unless an `accepted` entry's values (bar and pub) hold both; and a
    one-word term of fewer than TERM_MINIMUM_LETTERS letters. Names and aliases then keep their
    own collision check, which a term no longer takes part in."""
    claimed = {}
    for name, per_lang in list(values.items()) + [("cuisine=" + c, p) for c, p in cuisine.items()]:
        for lang in REVIEWED:
            for w in per_lang.get(lang, []):
                claimed.setdefault(("*", w), set()).add(name)
    for table in (names, terms):
        for name, per_lang in table.items():
            for lang in NAMES_ONLY:
                for w in per_lang.get(lang, []):
                    claimed.setdefault((lang, w), set()).add(name)
    groups = [set(e["values"]) for e in accepted if "word" not in e]
    out = {}
    for name, per_lang in terms.items():
        out[name] = {}
        for lang, words in per_lang.items():
            out[name][lang] = []
            for w in words:
                if " " not in w and len(w) < TERM_MINIMUM_LETTERS:
                    print("short %s %r: %s" % (lang, w, name), file=sys.stderr)
                    continue
                others = (claimed.get(("*", w), set()) | claimed[(lang, w)]) - {name}
                if others and not any(others | {name} <= g for g in groups):
                    print("claimed %s %r: %s" % (lang, w, ", ".join(sorted(others))), file=sys.stderr)
                else:
                    out[name][lang].append(w)
    return out


def raw_cuisine(locales, generic, extra_values):
    """{cuisine value: {lang: [words]}}: the cuisine field's option labels, generic words
    removed; values the review adds (not in iD) start empty."""
    en_options = {}
    for _code, t in locales["en"][0]:
        en_options.update(t.get("fields", {}).get("cuisine", {}).get("options", {}))
    out = {}
    for cv in sorted(set(en_options) | set(extra_values)):
        out[cv] = {}
        for lang in LANGUAGES:
            g = set(norm(w, lang) for w in generic.get(lang, []))
            words = []
            for label in cuisine_labels(locales[lang], cv):
                add_unique(words, [strip_generic(w, g) for w in split_phrase(label, lang)])
            out[cv][lang] = words
    return out


def apply_review(words, entry, lang, where, stale):
    drop = [norm(w, lang) for w in entry.get("drop", [])]
    for w in drop:
        if w not in words:
            stale.append("%s: drop %r matches nothing" % (where, w))
    out = [w for w in words if w not in drop]
    add = [norm(w, lang) for w in entry.get("add", [])]
    for w in add:
        if w in out:
            stale.append("%s: add %r is already there" % (where, w))
    add_unique(out, add)
    return out


def reviewed(raw, review_values, where, stale):
    out = {}
    for name, per_lang in raw.items():
        rv = review_values.get(name, {})
        for lang in rv:
            if lang not in LANGUAGES:
                stale.append("%s %s: unknown language %r" % (where, name, lang))
        words = {}
        for lang in LANGUAGES:
            w = apply_review(per_lang.get(lang, []), rv.get(lang, {}), lang,
                             "%s %s %s" % (where, name, lang), stale)
            if w:
                words[lang] = w
        if words:
            out[name] = words
    for name in review_values:
        if name not in raw:
            stale.append("%s %s: not a value here" % (where, name))
    return out


def joined(table, joins):
    """The table with each group of `joins` merged: every value of a group lists, per language,
    its own words and then those of the group's other values, in the group's order."""
    out = {name: {lang: list(words) for lang, words in per_lang.items()} for name, per_lang in table.items()}
    for join in joins:
        group = join["values"]
        for name in group:
            for other in group:
                if other == name:
                    continue
                for lang, words in table[other].items():
                    add_unique(out[name].setdefault(lang, []), words)
    return out


def with_purposes(values, cuisine, purposes):
    """The values table with each purpose's words (its cuisine value's, or its own `words` per
    language) added to every value it lists, after the value's own words."""
    out = {name: {lang: list(words) for lang, words in per_lang.items()} for name, per_lang in values.items()}
    for purpose in purposes:
        words = cuisine[purpose["cuisine"]] if "cuisine" in purpose else purpose["words"]
        for name in purpose["values"]:
            for lang, listed in words.items():
                add_unique(out[name].setdefault(lang, []), listed)
    return out


def collisions(table, shared):
    """Words listed under more than one value (per language), minus those the review accepts:
    a shared entry with "values" and no "word" accepts every word the values share (one tag
    and its deprecated spelling); with "lang" and "word" it accepts that word."""
    seen = {}
    for name, per_lang in table.items():
        for lang, words in per_lang.items():
            for w in words:
                seen.setdefault((lang, w), []).append(name)
    out = []
    for (lang, w), names in sorted(seen.items()):
        if len(names) < 2:
            continue
        ok = False
        for entry in shared:
            if not set(names) <= set(entry["values"]):
                continue
            if "word" not in entry or (entry["word"] == w and entry["lang"] == lang):
                ok = True
        if not ok:
            out.append((lang, w, names))
    return out


def without_broad(table, shared):
    """The table without the words of the NAMES_ONLY languages that `collisions` finds (under
    more than one value, not accepted), and how many it dropped."""
    broad = [(lang, w, names) for lang, w, names in collisions(table, shared) if lang in NAMES_ONLY]
    out = {name: {lang: list(words) for lang, words in per_lang.items()} for name, per_lang in table.items()}
    for lang, w, names in broad:
        print("broad %s %r: %s" % (lang, w, ", ".join(names)), file=sys.stderr)
        for name in names:
            out[name][lang].remove(w)
            if not out[name][lang]:
                del out[name][lang]
    return out, len(broad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True,
                    help="id-tagging-schema work tree or git directory")
    ap.add_argument("--rev", default=None,
                    help="tag or commit to read from a git directory (default %s)" % DEFAULT_REV)
    ap.add_argument("--categories", default=os.path.join(ROOT, "Pipelines", "categories.json"))
    ap.add_argument("--review", default=os.path.join(HERE, "value-words-review.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Pipelines", "value-words.json"))
    args = ap.parse_args()

    src = Source(args.source, args.rev)
    version = json.loads(src.read("package.json") or "{}").get("version", "?")
    with open(args.categories, encoding="utf-8") as f:
        categories = json.load(f)
    with open(args.review, encoding="utf-8") as f:
        review = json.load(f)
    locales = load_locales(src)
    stale = []

    keys = value_keys(categories)
    presets = review.get("presets", {})
    raw_v = raw_values(locales, keys, presets,
                       lambda lang: ("name", "aliases") if lang in NAMES_ONLY else ("name", "aliases", "terms"))
    for vk, per_lang in raw_v.items():
        missing = [lang for lang in LANGUAGES if not per_lang[lang]]
        if len(missing) == len(LANGUAGES):
            print("note: %s: no iD preset" % vk, file=sys.stderr)
        elif missing:
            print("note: %s: not translated in iD for %s" % (vk, " ".join(missing)),
                  file=sys.stderr)
    rc = review.get("cuisine", {})
    raw_c = raw_cuisine(locales, rc.get("generic", {}), rc.get("values", {}))
    cuisine = reviewed(raw_c, rc.get("values", {}), "cuisine", stale)

    terms = raw_values(locales, keys, presets, lambda lang: ("terms",) if lang in NAMES_ONLY else ())
    accepted = review.get("shared", []) + review.get("joins", []) + review.get("purposes", [])
    terms = unclaimed_terms(terms, raw_v, reviewed(raw_v, review.get("values", {}), "values", []),
                            cuisine, accepted)
    for vk, per_lang in terms.items():
        for lang, words in per_lang.items():
            add_unique(raw_v[vk][lang], words)
    values = joined(reviewed(raw_v, review.get("values", {}), "values", stale), review.get("joins", []))
    cuisine, broad_cuisine = without_broad(cuisine, rc.get("shared", []))
    values = with_purposes(values, cuisine, review.get("purposes", []))

    values, broad_values = without_broad(values, accepted)
    print("dropped as broad (under several values) in the names-only languages: %d value words, "
          "%d cuisine words" % (broad_values, broad_cuisine), file=sys.stderr)
    for name, table, shared in (("values", values, accepted),
                                ("cuisine", cuisine, rc.get("shared", []))):
        for lang, w, names in collisions(table, shared):
            print("collision %s %s %r: %s" % (name, lang, w, ", ".join(names)), file=sys.stderr)
    for line in stale:
        print("review: " + line, file=sys.stderr)

    out = {
        "schema_version": 1,
        "about": (
            "Search words for OSM values in %d languages. Source: openstreetmap/id-tagging-schema "
            "%s (commit %s, package version %s), ISC licence, Copyright (c) 2017, iD "
            "Contributors: the translated preset names, aliases and terms of each amenity=* and "
            "tourism=* value of Pipelines/categories.json (dist/translations/<locale>.json; nb is "
            "iD's nb and no, zh is zh-CN, pt is pt with pt-BR where pt lacks a preset) and the "
            "labels of the cuisine field's options (generic words such as 'food' or 'кухня' "
            "removed). Hand-reviewed in Scripts/value-words-review.json: kept are names of the "
            "same kind of place, their plurals and common inflected forms; terms naming a broader "
            "or different place, activities, objects and brands were dropped; values and "
            "languages iD lacks were filled in by hand; words that name what a place is for (a "
            "cuisine value's: coffee, ice cream; and beer, wine bar, wine) also name the place "
            "values kept for it (amenity=cafe; pub, bar, biergarten; bar; wine_cellar). Lowercased, "
            "accents kept; multi-word "
            "entries are phrases. compounds: the languages that write compounds as one word, "
            "whose words of at least minimum_letters letters also match at the end of a longer "
            "name word. The languages after the first 20 (%s) were not reviewed by hand: they take "
            "iD's preset names and aliases, and those of its terms that no reviewed language lists "
            "under another value or as a cuisine and that their own language lists under no other "
            "value; a word that falls under more than one value is dropped. Made by "
            "Scripts/value-words.py."
            % (len(LANGUAGES), src.rev or "v" + version, src.commit or "unknown", version, " ".join(NAMES_ONLY))
        ),
        "languages": LANGUAGES,
        "values": values,
        "cuisine": cuisine,
        "compounds": COMPOUNDS,
    }
    text = json.dumps(out, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    per_lang = " ".join("%s=%d" % (lang, sum(len(v.get(lang, [])) for v in values.values()))
                        for lang in LANGUAGES)
    print("wrote %s: %d values, %d cuisine values; value words per language: %s"
          % (args.out, len(values), len(cuisine), per_lang), file=sys.stderr)


if __name__ == "__main__":
    main()
