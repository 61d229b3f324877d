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

    @Test("gives map's elements for any number of threads, runs taken in any order", arguments: [1, 2, 3, 16])
    func anyThreads(threads: Int) {
        let numbers = Array(0..<5_000)
        // Unequal costs: a few elements take far longer, so threads finish their runs out of order.
        let sums = numbers.concurrentMap(threads: threads, minimumRun: 1) { number in
            (0..<(number % 97 == 0 ? 20_000 : 10)).reduce(number) { $0 &+ $1 }
        }
        #expect(sums == numbers.map { number in (0..<(number % 97 == 0 ? 20_000 : 10)).reduce(number) { $0 &+ $1 } })
    }
}
