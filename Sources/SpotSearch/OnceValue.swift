import Foundation

/// A value made on first use, once, whichever thread asks first: for what a search shared
/// between threads may never need.
final class OnceValue<Value>: @unchecked Sendable {
    // Unchecked: `made` is read and written under `lock` only, and `make` is called under it.
    private let lock = NSLock()
    private let make: @Sendable () -> Value
    private var made: Value?

    /// A value that `make` makes when it is first asked for.
    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    /// The value, made now if it was not yet.
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
