/// The members of a JSON object of a pipeline file with where the object sits, so that a field
/// the file leaves out is taken from the file beneath it (default.json), or reported where it
/// belongs (`.gates.max_drop: missing`).
public struct JSONObject: Sendable {
    /// The file the object was read from.
    public let file: String
    /// The object's JSON path ("" for a file's top level).
    public let path: String
    /// The members, by key.
    public let members: [String: JSONNode]

    /// Member `key`, or nil where the object has none.
    public subscript(key: String) -> JSONNode? { members[key] }

    /// The error for member `key`, which is required and absent.
    public func missing(_ key: String) -> PipelineError {
        PipelineError(file: file, path: path + "." + key, message: "missing")
    }

    /// Member `key` as `read` reads it; where the object has none, `inherited` (the value the
    /// file beneath gives), or the error "missing" when there is none either.
    public func value<Value>(
        _ key: String, inherited: Value?, _ read: (JSONNode) throws(PipelineError) -> Value
    ) throws(PipelineError) -> Value {
        if let node = members[key] { return try read(node) }
        guard let inherited else { throw missing(key) }
        return inherited
    }

    /// Member `key` as true or false; where absent, `inherited`, or the error "missing".
    public func bool(_ key: String, inherited: Bool?) throws(PipelineError) -> Bool {
        try value(key, inherited: inherited) { (node) throws(PipelineError) in try node.bool() }
    }

    /// Member `key` as a whole number of at least `minimum`; where absent, `inherited`, or the
    /// error "missing".
    public func integer(_ key: String, atLeast minimum: Int, inherited: Int?) throws(PipelineError) -> Int {
        try value(key, inherited: inherited) { (node) throws(PipelineError) in try node.integer(atLeast: minimum) }
    }

    /// Member `key` as a number in `range` (`what` names it in the error); where absent,
    /// `inherited`, or the error "missing".
    public func number(
        _ key: String, in range: ClosedRange<Double>, _ what: String, inherited: Double?
    ) throws(PipelineError) -> Double {
        try value(key, inherited: inherited) { (node) throws(PipelineError) in try node.number(in: range, what) }
    }

    /// Member `key`, an object whose keys are all among `allowed`; where the object has none, an
    /// empty object at its path, or the error "missing" when it is `required`.
    public func object(
        _ key: String, allowing allowed: Set<String>, required: Bool
    ) throws(PipelineError) -> JSONObject {
        guard let node = members[key] else {
            if required { throw missing(key) }
            return JSONObject(file: file, path: path + "." + key, members: [:])
        }
        return JSONObject(file: file, path: node.path, members: try node.object(allowing: allowed))
    }
}
