import OSMGeometry
import Testing

@Suite struct NodeLocationStoreTests {
    @Test func sparseIdsAreFoundAcrossTheHigh32Bits() {
        let store = NodeLocationStore()
        let ids: [Int64] = [-5, 3, 1_000, 4_294_967_295, 4_294_967_296, 8_592_764_893, 137_000_000_000]
        for (index, id) in ids.enumerated() {
            store.append(id: id, latitudeE7: Int32(index), longitudeE7: -Int32(index))
        }
        store.finish()
        #expect(!store.isDense)
        for (index, id) in ids.enumerated() { #expect(store.location(of: id)! == (Int32(index), -Int32(index))) }
        for missing: Int64 in [-6, 4, 999, 4_294_967_294, 8_592_764_894, 1 << 40] {
            #expect(store.location(of: missing) == nil)
        }
    }

    @Test func denseIdsTakeEightBytesANode() {
        let store = NodeLocationStore()
        for id: Int64 in 100..<1_100 where id % 7 != 0 { store.append(id: id, latitudeE7: Int32(id), longitudeE7: 2) }
        store.finish()
        #expect(store.isDense)
        #expect(store.byteCount == (1_098 - 100 + 1) * 8)  // 1,099 is a multiple of 7
        #expect(store.location(of: 101)! == (101, 2))
        #expect(store.location(of: 105) == nil)
        #expect(store.location(of: 99) == nil)
        #expect(store.location(of: 1_100) == nil)
    }

    @Test func unsortedInputIsSortedAndTheLaterEntryWins() {
        let store = NodeLocationStore()
        for id: Int64 in [50, 10, 1 << 33, 30, 10] {
            store.append(id: id, latitudeE7: Int32(truncatingIfNeeded: id), longitudeE7: 0)
        }
        store.append(id: 30, latitudeE7: 7, longitudeE7: 7)
        store.finish()
        #expect(store.count == 4)
        #expect(store.location(of: 30)! == (7, 7))
        #expect(store.location(of: 10)! == (10, 0))
        #expect(store.location(of: 1 << 33)! == (0, 0))
        #expect(store.location(of: 20) == nil)
    }

    @Test func largeStoresSpillToATemporaryFileAndReadBack() {
        let store = NodeLocationStore(memoryLimit: 1 << 16)
        for index in 0..<50_000 {
            store.append(id: Int64(index) * 1_000, latitudeE7: Int32(index), longitudeE7: Int32(-index))
        }
        store.finish()
        #expect(store.isSpilled)
        #expect(store.byteCount <= 50_000 * 12 + 64)
        #expect(store.location(of: 49_999_000)! == (49_999, -49_999))
        #expect(store.location(of: 123_000)! == (123, -123))
        #expect(store.location(of: 123_001) == nil)
    }
}

@Suite struct WayNodeStoreTests {
    @Test func nodeListsComeBackAsStored() {
        var store = WayNodeStore()
        let lists: [(Int64, [Int64])] = [(7, [1, 2, 3, 1]), (3, [-4, 9_000_000_000, 5]), (9, []), (7, [8, 9])]
        for (id, nodes) in lists { nodes.withUnsafeBufferPointer { store.append(id: id, nodes: $0) } }
        store.finish()
        #expect(store.nodes(of: 3) == [-4, 9_000_000_000, 5])
        #expect(store.nodes(of: 7) == [8, 9])
        #expect(store.nodes(of: 9) == [])
        #expect(store.nodes(of: 4) == nil)
    }
}
