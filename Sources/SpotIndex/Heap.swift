/// A box of the spatial tree waiting in the best-first queue, nearest (lower bound) first.
struct Entry: Comparable {
    /// A lower bound of the distance to anything in the box: the cheap bound along the meridian,
    /// or the exact bound.
    let distance: Double
    /// Whether `distance` is the exact bound of the box.
    let exact: Bool
    /// The box's tree level + 1 (the root is the highest).
    let level: Int
    let index: Int

    static func < (a: Entry, b: Entry) -> Bool { a.distance < b.distance }
    static func == (a: Entry, b: Entry) -> Bool { a.distance == b.distance }
}

/// A binary min-heap of `Comparable` elements (the smallest pops first). Sifting moves a hole
/// rather than swapping, and works on the storage directly: the near search pushes and pops an
/// entry per box and per spot it looks at, so this loop is its hottest.
struct Heap<Element: Comparable> {
    private var items: [Element] = []

    mutating func push(_ element: Element) {
        items.append(element)
        items.withUnsafeMutableBufferPointer { items in
            var hole = items.count - 1
            while hole > 0 {
                let parent = (hole - 1) / 2
                guard element < items[parent] else { break }
                items[hole] = items[parent]
                hole = parent
            }
            items[hole] = element
        }
    }

    mutating func pop() -> Element? {
        guard let last = items.popLast() else { return nil }
        guard let top = items.first else { return last }
        items.withUnsafeMutableBufferPointer { items in
            let count = items.count
            var hole = 0
            while true {
                var child = 2 * hole + 1
                guard child < count else { break }
                if child + 1 < count && items[child + 1] < items[child] { child += 1 }
                guard items[child] < last else { break }
                items[hole] = items[child]
                hole = child
            }
            items[hole] = last
        }
        return top
    }
}

/// The head of one posting list while lists are merged in reference order.
struct ListHead: Comparable {
    /// The reference rank of the list's next spot.
    let rank: Int
    /// Which list.
    let list: Int

    static func < (a: ListHead, b: ListHead) -> Bool { a.rank < b.rank }
}
