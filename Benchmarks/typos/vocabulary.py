#!/usr/bin/env python3
"""Give each tiled copy of an OSM extract its own spellings of its names: a large vocabulary.

    vocabulary.py TILED.osm.gz OUT.osm.gz --copies N [--places PLACES.json] [--sample K]

TILED is an extract made by ../shared/bench/make-metro.py with --copies N (copy c of an
object with id X has id X*N + c, so the copy of an element is its id % N). In OUT, every word
of 4 letters or more in a `name` or `name:*` tag of copy c > 0 is replaced by a respelling: a
word drawn from a character model (order 3, backing off to 2) trained on the folded words of
copy 0's names, seeded by (c, the folded word), of about the word's length, with the word's
first letter's case. The same word in the same copy is respelt alike, so a name and its
name:xx agree. Copy 0 keeps its real names; every other line is copied byte for byte.

Prints the number of distinct folded words in OUT's names. With --places, writes a JSON list
of about K (default 10,000) named amenity/tourism nodes of OUT, drawn at random (seeded):
[{"id": ..., "name": ..., "lat": ..., "lon": ...}, ...], the places to ask for.
"""

import argparse
import bisect
import gzip
import html
import json
import random
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from functools import lru_cache

WORD = re.compile(r"[^\W\d_]+")
ELEMENT = ("<node ", "<way ", "<relation ")
ID = re.compile(r'\sid="(-?\d+)"')
LAT_LON = re.compile(r'\slat="(-?[\d.]+)"\s+lon="(-?[\d.]+)"')
NAME_TAG = re.compile(r'^(\s*<tag k="name(?::[^"]*)?" v=")([^"]*)("\s*/>\s*)$')
POI_TAG = re.compile(r'<tag k="(?:amenity|tourism)"')
START, END = "\x02", "\x03"  # a word's start and end symbols in the model
MIN_LETTERS = 4  # shorter words are kept
ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"),  # & first
           ("\n", "&#10;"), ("\r", "&#13;"), ("\t", "&#9;"))


@lru_cache(maxsize=None)
def fold(text):
    """Text folded as Spots folds names: NFKD, Latin letters' diacritics dropped, recomposed
    (NFC), lower case ("Pêcheurs" -> "pecheurs")."""
    kept, latin = [], False
    for c in unicodedata.normalize("NFKD", text):
        if not unicodedata.combining(c):
            latin = "LATIN" in unicodedata.name(c, "")
        elif latin:
            continue
        kept.append(c)
    return unicodedata.normalize("NFC", "".join(kept)).lower()


def script(word):
    """The script of a word's first letter: the first word of its Unicode name ("LATIN")."""
    return unicodedata.name(word[0], "?").split(" ")[0]


class CharacterModel:
    """Letters conditioned on the three before them (start symbols before a word's first),
    backing off to the two before; one table per script, so that Cyrillic is respelt in
    Cyrillic."""

    def __init__(self):
        """An empty model."""
        self.counts = defaultdict(Counter)  # (script, context of 2 or 3 symbols) -> next symbol -> count
        self.tables = {}
        self.scripts = set()

    def train(self, word):
        """Counts the transitions of a folded word."""
        s, symbols = script(word), START * 3 + word + END
        self.scripts.add(s)
        for i in range(3, len(symbols)):
            self.counts[s, symbols[i - 3 : i]][symbols[i]] += 1
            self.counts[s, symbols[i - 2 : i]][symbols[i]] += 1

    def table(self, key, may_end):
        """The choices after a context as (symbols, cumulative weights), without END unless
        may_end; None when there is none."""
        if (key, may_end) not in self.tables:
            pairs = [(c, n) for c, n in sorted(self.counts.get(key, {}).items()) if may_end or c != END]
            cumulative = [sum(n for _, n in pairs[: i + 1]) for i in range(len(pairs))]
            self.tables[key, may_end] = ([c for c, _ in pairs], cumulative) if pairs else None
        return self.tables[key, may_end]

    def draw(self, rng, length, s):
        """A word of script s of about `length` letters: the model cannot end it before
        length - 1 letters, ends it at `length` or later where a word may end, and never
        lets it pass length + 2 (shorter only where no letter may follow)."""
        if s not in self.scripts:
            s = "LATIN"
        letters = ""
        while len(letters) < length + 2:
            context, may_end = (START * 3 + letters)[-3:], len(letters) >= length - 1
            if len(letters) >= length and END in self.counts.get((s, context), {}):
                break
            choices = self.table((s, context), may_end) or self.table((s, context[1:]), may_end)
            if not choices:
                break
            symbols, cumulative = choices
            c = symbols[bisect.bisect_right(cumulative, rng.random() * cumulative[-1])]
            if c == END:
                break
            letters += c
        return letters


class Element:
    """The OSM element a line is in, from its start line: id, copy, position (strings, None
    but for nodes) and whether it is a node."""

    def __init__(self, start, copies):
        """The element that line `start` opens."""
        self.id = int(ID.search(start).group(1))
        self.copy = self.id % copies
        m = LAT_LON.search(start)
        self.lat, self.lon = (m.group(1), m.group(2)) if m else (None, None)
        self.node = start.startswith("<node ")


def elements(lines, copies):
    """Yields (line, its line stripped on the left, the Element it is in or None)."""
    element = None
    for line in lines:
        s = line.lstrip()
        if s.startswith(ELEMENT):
            element = Element(s, copies)
        yield line, s, element
        if s.startswith(("</node", "</way", "</relation")) or (s.startswith(ELEMENT) and s.rstrip().endswith("/>")):
            element = None


def train(path, copies):
    """The model of copy 0's names, and how many named amenity/tourism nodes copy 0 has."""
    model, named_pois, name, poi = CharacterModel(), 0, False, False
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line, s, element in elements(f, copies):
            if element is None or element.copy != 0:
                continue
            if s.startswith(ELEMENT):
                name = poi = False
            m = NAME_TAG.match(line)
            if m:
                name = name or 'k="name"' in line
                for word in WORD.findall(fold(html.unescape(m.group(2)))):
                    model.train(word)
            poi = poi or bool(POI_TAG.search(line))
            if element.node and s.startswith("</node") and name and poi:
                named_pois += 1
    return model, named_pois


def escape(value):
    """An attribute value escaped for XML: & < > " and the white space a line must not hold."""
    for c, escaped in ESCAPES:
        value = value.replace(c, escaped)
    return value


def respell(model, copies):
    """A function (copy, word) -> the copy's folded respelling of the word, each drawn once."""
    drawn = {}  # folded word -> [respelling of each copy, None until drawn]

    def respelling(copy, word):
        """The respelling of a word in a copy, in lower case."""
        key = fold(word)
        spellings = drawn.setdefault(key, [None] * copies)
        if spellings[copy] is None:
            rng = random.Random(f"{copy}:{key}")
            spellings[copy] = model.draw(rng, len(key), script(key)) or key
        return spellings[copy]

    return respelling


def rewrite(source, out, copies, model, rate, seed):
    """Writes OUT: source's lines with copies' names respelt. Returns the distinct folded
    name words written and the sampled places."""
    respelling, words, places = respell(model, copies), set(), []
    rng = random.Random(seed)
    name = poi = None

    def word_of(copy):
        """The re.sub replacement for a word match of a name of a copy, noting the word."""

        def replace(m):
            word = m.group()
            if copy == 0 or len(word) < MIN_LETTERS:
                words.add(fold(word))
                return word
            new = respelling(copy, word)
            words.add(new)
            return new[0].upper() + new[1:] if word[0].isupper() else new

        return replace

    with gzip.open(source, "rt", encoding="utf-8") as f:
        for line, s, element in elements(f, copies):
            if s.startswith(ELEMENT):
                name, poi = None, False
            m = NAME_TAG.match(line) if element else None
            if m:
                value = html.unescape(m.group(2))
                new = WORD.sub(word_of(element.copy), value)
                if new != value:
                    line = m.group(1) + escape(new) + m.group(3)
                if 'k="name"' in line:
                    name = new
            elif element and not poi:
                poi = bool(POI_TAG.search(line))
            out.write(line)
            if element and element.node and s.startswith("</node") and name and poi and rng.random() < rate:
                places.append({"id": element.id, "name": name, "lat": float(element.lat), "lon": float(element.lon)})
    return words, places


def main():
    """Reads the arguments, trains the model, writes the respelt extract and the places."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tiled", help="a .osm.gz made by make-metro.py")
    ap.add_argument("out", help="the .osm.gz to write")
    ap.add_argument("--copies", type=int, required=True, help="make-metro.py's --copies")
    ap.add_argument("--places", help="the JSON list of places to write")
    ap.add_argument("--sample", type=int, default=10000, help="about how many places (default 10000)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--level", type=int, default=1, help="gzip level (default 1: a cache, made fast)")
    a = ap.parse_args()
    model, named = train(a.tiled, a.copies)
    rate = min(1.0, a.sample / max(1, named * a.copies))
    with gzip.open(a.out, "wt", encoding="utf-8", compresslevel=a.level) as out:
        words, places = rewrite(a.tiled, out, a.copies, model, rate, a.seed)
    if a.places:
        with open(a.places, "w", encoding="utf-8") as f:
            json.dump(places, f, ensure_ascii=False)
    print(len(words))
    print(f"vocabulary.py: wrote {a.out}: {len(words):,} distinct name words, {len(places):,} places", file=sys.stderr)


if __name__ == "__main__":
    main()
