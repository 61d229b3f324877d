/// A subcommand's help, laid out as swift-argument-parser lays it out.
struct Help {
    let overview: String
    let usage: String
    let arguments: [(name: String, help: String)]
    let options: [OptionSpec]
    var discussion: String? = nil

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

    private static func row(_ name: String, _ help: String) -> String {
        let padded = "  " + name
        let width = 26
        let indent = String(repeating: " ", count: width)
        let body = help.split(separator: "\n").enumerated().map { $0.offset == 0 ? String($0.element) : indent + $0.element }
            .joined(separator: "\n")
        return padded.count < width - 1
            ? padded + String(repeating: " ", count: width - padded.count) + body
            : padded + "\n" + indent + body
    }
}
