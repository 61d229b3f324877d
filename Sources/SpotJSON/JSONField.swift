/// A JSON value with where it sits: the document it was read from and its JSON path
/// (`.dedupe.radius`, `.values.amenity=cafe.en[2]`). The one validator of the files people
/// write (pipeline files, category tables, search word files): its readers check a value's
/// type and range and throw `JSONFieldError` naming the document and the path, so that every
/// message reads `FILE: PATH: what is wrong`.
public struct JSONField: Sendable {
    /// The value.
    public let value: JSONValue
    /// The value's JSON path ("" for the top level).
    public let path: String
    /// The document the value was read from, as errors name it (a file as the user named it).
    public let document: String

    /// The value at `path` of `document`.
    public init(_ value: JSONValue, document: String, path: String = "") {
        self.value = value
        self.document = document
        self.path = path
    }

    /// The error `message` says of this field.
    public func error(_ message: String) -> JSONFieldError {
        JSONFieldError(document: document, path: path.isEmpty ? "." : path, message: message)
    }

    /// The error for member `key` of this object, which is required and absent: "missing".
    public func missing(_ key: String) -> JSONFieldError {
        JSONFieldError(document: document, path: path + "." + key, message: "missing")
    }

    /// The members of an object, each with its path, after checking that every key is one of
    /// `allowed` (nil: any key).
    public func object(allowing allowed: Set<String>? = nil) throws(JSONFieldError) -> [String: JSONField] {
        guard case .object(let members) = value else { throw error("expected an object") }
        var fields: [String: JSONField] = [:]
        for (key, member) in members {
            let field = JSONField(member, document: document, path: path + "." + key)
            if let allowed, !allowed.contains(key) {
                throw field.error("unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
            }
            fields[key] = field
        }
        return fields
    }

    /// The members of an object, each as `read` reads it.
    public func members<Value>(
        _ read: (JSONField) throws(JSONFieldError) -> Value
    ) throws(JSONFieldError) -> [String: Value] {
        var values: [String: Value] = [:]
        for (key, field) in try object() { values[key] = try read(field) }
        return values
    }

    /// Member `key` of this object, or the error "missing" where it has none.
    public func member(_ key: String) throws(JSONFieldError) -> JSONField {
        guard let field = try optionalMember(key) else { throw missing(key) }
        return field
    }

    /// Member `key` of this object, or nil where it has none or it is null (as Foundation's
    /// decoder reads an optional member).
    public func optionalMember(_ key: String) throws(JSONFieldError) -> JSONField? {
        guard case .object(let members) = value else { throw error("expected an object") }
        guard let member = members[key], member != .null else { return nil }
        return JSONField(member, document: document, path: path + "." + key)
    }

    /// The top level of a versioned data file: an object with `schema_version` 1 and the
    /// member `key`, and no members but those and `others`. Gives member `key` and all members.
    public func versioned(
        key: String, allowing others: Set<String>
    ) throws(JSONFieldError) -> (member: JSONField, members: [String: JSONField]) {
        let members = try object(allowing: others.union(["schema_version", key]))
        guard let version = members["schema_version"] else { throw missing("schema_version") }
        guard try version.integer(atLeast: 1) == 1 else {
            throw version.error("unsupported version; this program reads 1")
        }
        guard let member = members[key] else { throw missing(key) }
        return (member, members)
    }

    /// The items of an array, each with its path (`.exclude[1]`).
    public func array() throws(JSONFieldError) -> [JSONField] {
        guard case .array(let items) = value else { throw error("expected an array") }
        return items.enumerated().map { JSONField($0.element, document: document, path: path + "[\($0.offset)]") }
    }

    /// The value as a string.
    public func string() throws(JSONFieldError) -> String {
        guard case .string(let text) = value else { throw error("expected a string") }
        return text
    }

    /// The value as true or false.
    public func bool() throws(JSONFieldError) -> Bool {
        guard case .bool(let flag) = value else { throw error("expected true or false") }
        return flag
    }

    /// The value as a number in `range`; `what` names it in the error ("a fraction").
    public func number(
        in range: ClosedRange<Double> = -.greatestFiniteMagnitude ... .greatestFiniteMagnitude,
        _ what: String = "a number"
    ) throws(JSONFieldError) -> Double {
        guard case .number(let number) = value else { throw error("expected \(what)") }
        guard range.contains(number) else {
            let bounds = "from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
            throw error("expected \(what) \(bounds), got \(Self.format(number))")
        }
        return number
    }

    /// The value as a whole number of at least `minimum` (and below 10^15): a count or size a
    /// person writes.
    public func integer(atLeast minimum: Int) throws(JSONFieldError) -> Int {
        guard case .number(let number) = value, number.rounded() == number, number >= Double(minimum), number < 1e15
        else {
            throw error("expected a whole number of at least \(minimum)")
        }
        return Int(number)
    }

    /// The value as any whole number an `Int` holds, read exactly (a program's counts, which
    /// may be beyond a `Double`'s exact range).
    public func wholeNumber() throws(JSONFieldError) -> Int {
        if case .number(let number) = value, number.rounded() == number, abs(number) < 0x1p63 { return Int(number) }
        if case .numberText(let text) = value, let whole = Int(text) { return whole }
        throw error("expected a whole number")
    }

    /// Whether the value is null.
    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// A number in an error: whole ones without decimals.
    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

/// What is wrong with a field of a document (`JSONField`), or with the document as a whole.
public struct JSONFieldError: Error, CustomStringConvertible, Sendable {
    /// The document, as the user named it.
    public let document: String
    /// The JSON path of the field ("." for the top level), or nil for the document as a whole
    /// (text that is not JSON).
    public let path: String?
    /// What is wrong.
    public let message: String

    /// The error `message` says of the field at `path` of `document` (nil: the document as a whole).
    public init(document: String, path: String?, message: String) {
        self.document = document
        self.path = path
        self.message = message
    }

    /// `DOCUMENT: PATH: what is wrong`.
    public var description: String { [document, path, message].compactMap { $0 }.joined(separator: ": ") }
}
