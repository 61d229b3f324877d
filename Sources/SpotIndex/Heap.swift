/// A binary min-heap of `Comparable` elements (the smallest pops first). Sifting moves a hole
/// rather than swapping, and works on the storage directly: the near search pushes and pops an
/// entry per box it looks at, so this loop is its hottest. Public for SpotSearch, which merges
/// posting lists with it, and inlinable, so that each use is specialized: with `package` access
/// the compiler called the generic code from SpotSearch, which doubled a text search's time.
public struct Heap<Element: Comparable> {
    @usableFromInline var items: [Element] = []

    /// An empty heap.
    @inlinable public init() {}

    /// Adds `element`.
    @inlinable public mutating func push(_ element: Element) {
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

    /// Removes and returns the smallest element; nil when empty.
    @inlinable public mutating func pop() -> Element? {
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
