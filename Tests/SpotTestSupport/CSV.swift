/// A departure from RFC 4180 found reading CSV text.
public struct CSVError: Error, CustomStringConvertible {
    /// What is wrong, and where (a scalar offset) when it is one place.
    public var description: String

    init(_ description: String) { self.description = description }
}

/// The records of RFC 4180 CSV text: each record ends in CR LF, its fields are split at commas,
/// and a quoted field holds any character (line breaks included) with its quotes doubled.
/// Strict: a bare CR or LF outside quotes, a quote inside an unquoted field, text after a
/// closing quote, or a last record not ended by CR LF is an error.
public func parseCSV(_ text: String) throws -> [[String]] {
    var reader = CSVReader(scalars: Array(text.unicodeScalars))
    var records: [[String]] = []
    while !reader.isAtEnd { records.append(try reader.record()) }
    return records
}

/// Reads CSV text scalar by scalar: CR LF is two scalars, where it is one Character.
private struct CSVReader {
    let scalars: [Unicode.Scalar]
    var position = 0

    var isAtEnd: Bool { position == scalars.count }

    /// The scalar at the reading position, or nil at the end.
    var next: Unicode.Scalar? { isAtEnd ? nil : scalars[position] }

    /// One record's fields, and the CR LF that ends it.
    mutating func record() throws -> [String] {
        var fields: [String] = []
        while true {
            fields.append(next == "\"" ? try quotedField() : try plainField())
            switch next {
            case ",":
                position += 1
            case "\r":
                position += 1
                guard next == "\n" else { throw CSVError("a bare CR at \(position - 1)") }
                position += 1
                return fields
            default:
                throw CSVError("the last record is not ended by CR LF")
            }
        }
    }

    /// An unquoted field, up to the comma, CR or end after it.
    mutating func plainField() throws -> String {
        var field = String.UnicodeScalarView()
        while let scalar = next, scalar != ",", scalar != "\r" {
            guard scalar != "\n" else { throw CSVError("a bare LF at \(position)") }
            guard scalar != "\"" else { throw CSVError("a quote in an unquoted field at \(position)") }
            field.append(scalar)
            position += 1
        }
        return String(field)
    }

    /// A quoted field, from its opening quote to its closing one, which a comma, CR or the end
    /// must follow.
    mutating func quotedField() throws -> String {
        var field = String.UnicodeScalarView()
        position += 1
        while true {
            guard let scalar = next else { throw CSVError("an unterminated quoted field") }
            position += 1
            if scalar != "\"" {
                field.append(scalar)
            } else if next == "\"" {
                field.append("\"")
                position += 1
            } else {
                guard next == nil || next == "," || next == "\r" else {
                    throw CSVError("text after a quoted field at \(position)")
                }
                return String(field)
            }
        }
    }
}
