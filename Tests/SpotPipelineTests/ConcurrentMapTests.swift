import ProcessSupport
import Testing

@Suite("Mapping on every core")
struct ConcurrentMapTests {
    @Test(
        "gives map's elements in map's order, for arrays shorter and longer than a run",
        arguments: [0, 1, 7, 1023, 1024, 2048, 4097, 100_003])
    func equalsMap(count: Int) {
        let numbers = (0..<count).map { $0 &* 2_654_435_761 % 1_000_003 }
        let described = numbers.concurrentMap(minimumRun: 1024) { "spot \($0)" }
        #expect(described == numbers.map { "spot \($0)" })
        #expect(numbers.concurrentMap(minimumRun: 1) { $0 + 1 } == numbers.map { $0 + 1 })
    }
}
