import SpotJSON

/// The members of a JSON object of a pipeline file with where the object sits, so that a field
/// the file leaves out is taken from the file beneath it (default.json), or reported where it
/// belongs (`.gates.max_drop: missing`).
public struct PipelineObject: Sendable {
    /// The object itself (an empty object at its path where the file has none).
    let object: JSONField
    /// The members, by key.
    public let members: [String: JSONField]

    /// The object `object`, whose members are `members`.
    init(_ object: JSONField, members: [String: JSONField]) {
        self.object = object
        self.members = members
    }

    /// The file the object was read from.
    public var file: String { object.document }

    /// Member `key`, or nil where the object has none.
    public subscript(key: String) -> JSONField? { members[key] }

    /// The error for member `key`, which is required and absent.
    public func missing(_ key: String) -> JSONFieldError { object.missing(key) }

    /// Member `key` as `read` reads it; where the object has none, `inherited` (the value the
    /// file beneath gives), or the error "missing" when there is none either.
    public func value<Value>(
        _ key: String, inherited: Value?, _ read: (JSONField) throws(JSONFieldError) -> Value
    ) throws(JSONFieldError) -> Value {
        if let field = members[key] { return try read(field) }
        guard let inherited else { throw missing(key) }
        return inherited
    }

    /// Member `key` as true or false; where absent, `inherited`, or the error "missing".
    public func bool(_ key: String, inherited: Bool?) throws(JSONFieldError) -> Bool {
        try value(key, inherited: inherited) { (field) throws(JSONFieldError) in try field.bool() }
    }

    /// Member `key` as a whole number of at least `minimum`; where absent, `inherited`, or the
    /// error "missing".
    public func integer(_ key: String, atLeast minimum: Int, inherited: Int?) throws(JSONFieldError) -> Int {
        try value(key, inherited: inherited) { (field) throws(JSONFieldError) in try field.integer(atLeast: minimum) }
    }

    /// Member `key` as a number in `range` (`what` names it in the error); where absent,
    /// `inherited`, or the error "missing".
    public func number(
        _ key: String, in range: ClosedRange<Double>, _ what: String, inherited: Double?
    ) throws(JSONFieldError) -> Double {
        try value(key, inherited: inherited) { (field) throws(JSONFieldError) in try field.number(in: range, what) }
    }

    /// Member `key`, an object whose keys are all among `allowed`; where the object has none, an
    /// empty object at its path, or the error "missing" when it is `required`.
    public func object(
        _ key: String, allowing allowed: Set<String>, required: Bool
    ) throws(JSONFieldError) -> PipelineObject {
        guard let field = members[key] else {
            if required { throw missing(key) }
            return PipelineObject(
                JSONField(.object([:]), document: file, path: object.path + "." + key), members: [:])
        }
        return PipelineObject(field, members: try field.object(allowing: allowed))
    }
}
