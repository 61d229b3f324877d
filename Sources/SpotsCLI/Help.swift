/// An option a command accepts: its names ("-o", "--output"), the value it takes (none for a
/// flag), and its help.
struct OptionSpec {
    /// Every name, as the help lists them; the longest is the option's key.
    let names: [String]
    /// The value's name in help (`<output>`), or nil for a flag.
    let valueName: String?
    /// The values the option accepts when they are a fixed list (a `--format`), shown in the
    /// usage line instead of the value's name.
    var choices: [String]? = nil
    /// The help text; each line break starts a line of the help's column.
    let help: String

    /// The option's key (its longest name): what `Arguments` files its value under and what
    /// the usage line shows, as swift-argument-parser shows a long name.
    var key: String { names.reduce("") { $1.count > $0.count ? $1 : $0 } }

    /// An option taking a value of `Choice`, whose raw values are what may be given.
    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ names: [String], of type: Choice.Type, valueName: String = "format", help: String
    ) -> OptionSpec where Choice.RawValue == String {
        OptionSpec(names: names, valueName: valueName, choices: Choice.allCases.map(\.rawValue), help: help)
    }

    /// How the usage line shows the option: `--keep-all`, `--threads <n>`, `--format a|b`.
    var synopsis: String {
        guard let valueName else { return key }
        return key + " " + (choices?.joined(separator: "|") ?? "<\(valueName)>")
    }
}

/// A subcommand's help, laid out as swift-argument-parser lays it out (OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS), its usage line made from the option table.
struct Help {
    /// A positional argument: its name in help (`<index>`), whether it may be given any number
    /// of times (none included), and its help text.
    struct Argument {
        let name: String
        /// Given any number of times: `[<input> ...]`.
        var repeated = false
        /// With `repeated`, given at least once: `<change> ...`.
        var required = false
        let help: String
    }

    /// One way of calling a command: the options it needs and those it may take. A command
    /// with several (`--bbox ... | --children ID | ...`) lists them in its usage line, apart.
    struct Mode {
        var required: [String] = []
        var optional: [String] = []
    }

    /// The subcommand's name: `build`.
    let command: String
    /// What the command does, in one line.
    let overview: String
    /// Its positional arguments.
    var arguments: [Argument] = []
    /// Its option table: what `Arguments` accepts, the OPTIONS rows, and the usage line.
    let options: [OptionSpec]
    /// The ways of calling the command; none: one way, every option optional.
    var modes: [Mode] = []
    /// Text after the options: what the command does in more detail.
    var discussion: String? = nil

    /// `spots build [<input> ...] [--output <output>] ...`: the arguments, then each mode's
    /// options, those it needs first, each kind in the order of the option table; `--help`
    /// left out.
    var usage: String {
        let positionals = arguments.map {
            $0.repeated ? ($0.required ? "\($0.name) ..." : "[\($0.name) ...]") : $0.name
        }
        let ways = modes.isEmpty ? [Mode(optional: options.map(\.key).filter { $0 != Self.option.key })] : modes
        let synopses = ways.map { mode in
            let required = options.filter { mode.required.contains($0.key) }.map(\.synopsis)
            let optional = options.filter { mode.optional.contains($0.key) }.map { "[\($0.synopsis)]" }
            return (required + optional).joined(separator: " ")
        }
        return (["spots", command] + positionals + [synopses.joined(separator: " | ")])
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The whole help text.
    var text: String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usage)", ""]
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            lines += arguments.map { Self.row($0.name, $0.help) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in options {
            let names = option.names.joined(separator: ", ") + (option.valueName.map { " <\($0)>" } ?? "")
            lines.append(Self.row(names, option.help))
        }
        if let discussion { lines += ["", discussion] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help option every command has.
    static let option = OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show help information.")

    /// The `-o` of the commands that write to standard output unless told otherwise.
    static let fileOutput = OptionSpec(
        names: ["-o", "--output"], valueName: "output",
        help: """
            Write to this file (atomically; a FIFO or device
            straight through; - standard output) instead of
            standard output; without --format, its extension
            chooses the format.
            """)

    /// The `-O` that lets `-o` replace an existing file.
    static let overwrite = OptionSpec(
        names: ["-O", "--overwrite"], valueName: nil,
        help: """
            Replace the output file if it exists (without it,
            an existing file is refused, exit 73).
            """)

    /// The `--batch` of the commands that answer one JSON request a line.
    static let batch = OptionSpec(
        names: ["--batch"], valueName: "file",
        help: """
            One JSON request per line (- for stdin); one JSON
            line of results per request.
            """)

    /// The threads that answer a batch's requests.
    static let batchThreads = OptionSpec(
        names: ["--threads"], valueName: "n",
        help: """
            With --batch: threads that answer requests (default:
            one per core). The answers are the same, in order.
            """)

    /// The index argument of the commands that read one.
    static let index = Argument(name: "<index>", help: "An index written by 'spots build'.")

    /// A name and its help text, the text in a column of its own.
    private static func row(_ name: String, _ help: String) -> String {
        let padded = "  " + name
        let width = 26
        let indent = String(repeating: " ", count: width)
        let body = help.split(separator: "\n").enumerated()
            .map { $0.offset == 0 ? String($0.element) : indent + $0.element }
            .joined(separator: "\n")
        return padded.count < width - 1
            ? padded + String(repeating: " ", count: width - padded.count) + body
            : padded + "\n" + indent + body
    }
}
