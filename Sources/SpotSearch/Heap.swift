import Spots

/// A node or a spot waiting in the best-first queue. Order: distance, then what may still hold
/// or become a closer result (a lower bound not yet made exact, a box) before a spot at its exact
/// distance, then OSM reference.
struct Entry {
    /// A lower bound of the distance, or the exact distance (of a spot) or bound (of a box).
    let distance: Double
    /// Whether `distance` is exact rather than the cheap bound along the meridian.
    let exact: Bool
    /// 0 for a spot; otherwise the tree level + 1 of a box (the root is the highest).
    let level: Int
    let index: Int
    let ref: OSMRef?

    /// Whether this entry is a spot at its exact distance: the only kind that is a result.
    var isFinal: Bool { exact && level == 0 }

    static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.distance != b.distance { return a.distance < b.distance }
        if a.isFinal != b.isFinal { return !a.isFinal }
        if let ra = a.ref, let rb = b.ref { return ra < rb }
        return false
    }
}

/// A binary min-heap, ordered by `precedes`.
struct Heap<Element> {
    private var items: [Element] = []
    private let precedes: (Element, Element) -> Bool

    init(by precedes: @escaping (Element, Element) -> Bool) {
        self.precedes = precedes
    }

    mutating func push(_ entry: Element) {
        items.append(entry)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Element? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && precedes(items[left], items[smallest]) { smallest = left }
                if right < items.count && precedes(items[right], items[smallest]) { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
