import SpotRequests

/// A command-line mistake: names the bad argument; exit 64, with the command's usage line.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A command's parsed arguments: positionals in order, options by key (their longest name).
/// Typed readers (Arguments+Values.swift) turn option values into numbers, choices, points,
/// boxes and categories, with one style of error.
///
/// Accepts `--name value`, `--name=value`, `-o value`, flags, `--` to end options, and `-`
/// as a positional (standard input).
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` against the options a command accepts.
    init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals += remaining
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let option = options.first(where: { $0.names.contains(parts[0]) }) else {
                throw UsageError("unknown option '\(parts[0])'" + Self.suggestion(for: parts[0], among: options))
            }
            if option.valueName == nil {
                guard parts.count == 1 else { throw UsageError("option '\(parts[0])' takes no value") }
                flags.insert(option.key)
            } else if parts.count == 2 {
                values[option.key] = parts[1]
            } else if let value = remaining.popFirst() {
                values[option.key] = value
            } else {
                throw UsageError("option '\(parts[0])' needs a value")
            }
        }
    }

    /// "; did you mean -o / --output?" for the option of `options` one of whose names is nearest
    /// `name`, every name of it given; else "".
    private static func suggestion(for name: String, among options: [OptionSpec]) -> String {
        guard let nearest = Suggestions.nearest(to: name, among: options.flatMap(\.names)),
            let option = options.first(where: { $0.names.contains(nearest) })
        else { return "" }
        return "; did you mean \(option.names.joined(separator: " / "))?"
    }

    /// The one positional argument a command takes, described as `name` in errors.
    func onlyPositional(_ name: String) throws(UsageError) -> String {
        guard let first = positionals.first else { throw UsageError("missing \(name)") }
        guard positionals.count == 1 else { throw UsageError("unexpected argument '\(positionals[1])'") }
        return first
    }

    /// The text of the option keyed `name`, if given.
    func value(_ name: String) -> String? { values[name] }

    /// Whether the flag keyed `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
}
