import SpotIndex
import SpotTestSupport

/// The error opening `bytes` as an index throws, or nil when it opens.
func openingError(_ bytes: [UInt8]) throws -> IndexError? {
    try withTemporaryFile(bytes) { path -> IndexError? in
        do throws(IndexError) {
            _ = try SpotIndexReader(path: path)
            return nil
        } catch {
            return error
        }
    }
}

/// The IndexError `body` throws reading the index `bytes` (which must open), or nil when it
/// throws none; any other error is rethrown.
func readingError(_ bytes: [UInt8], _ body: (SpotIndexReader) throws -> Void) throws -> IndexError? {
    try withoutActuallyEscaping(body) { body in try readingErrors(bytes, [body])[0] }
}

/// The IndexError each of `bodies` throws reading the index `bytes` (which must open, once), or
/// nil for those that throw none; any other error is rethrown.
func readingErrors(_ bytes: [UInt8], _ bodies: [(SpotIndexReader) throws -> Void]) throws -> [IndexError?] {
    try withTemporaryFile(bytes) { path -> [IndexError?] in
        let reader = try SpotIndexReader(path: path)
        return try bodies.map { body -> IndexError? in
            do {
                try body(reader)
                return nil
            } catch let error as IndexError {
                return error
            }
        }
    }
}
