import Foundation
import Spots

/// `spots help --man` and `spots help --completions bash|zsh`: documents the program generates
/// from the same option tables as `--help` (`Help`, `OptionSpec`), so that they never differ.
enum HelpDocument {
    /// The subcommands' help, in the order `spots --help` lists them.
    static var commands: [Help] { subcommands.compactMap { command(named: $0)?.help } }

    /// What the program does, in one line: the first line of `spots --help`, after `OVERVIEW: `.
    static var summary: String {
        String(overview.prefix { $0 != "\n" }.dropFirst("OVERVIEW: ".count))
    }

    /// The help form `spots help ARGUMENTS` asks for (`--man`, `--completions bash|zsh`), or a
    /// usage error naming what is wrong.
    static func text(_ arguments: [String]) throws(UsageError) -> String {
        switch arguments {
        case ["--man"]: return manPage
        case ["--completions", "bash"]: return Completions.bash
        case ["--completions", "zsh"]: return Completions.zsh
        case let arguments where arguments.first == "--completions":
            throw UsageError("'--completions' needs bash or zsh")
        default: throw UsageError("unknown option '\(arguments[0])'; 'spots help' takes --man or --completions")
        }
    }

    /// The manual page, spots(1), in roff's man macros.
    static var manPage: String {
        var lines = [
            ".TH SPOTS 1 \"\" \"spots \(SpotsVersion.version)\" \"User Commands\"",
            ".SH NAME", "spots \\- " + roff(summary),
            ".SH SYNOPSIS", ".B spots", ".I subcommand", "[options]",
            ".SH DESCRIPTION",
            roff(summary) + " Each subcommand's options follow; "
                + "\\fBspots help\\fR \\fIsubcommand\\fR prints the same help.",
            ".SH COMMANDS",
        ]
        for help in commands {
            lines += [".SS spots " + roff(help.command), roff(help.overview), ".PP", ".B " + roff(help.usage)]
            lines += help.arguments.flatMap { [".TP", ".I " + roff($0.name), roff(paragraph($0.help))] }
            for option in help.options {
                let value = option.choices?.joined(separator: "|") ?? option.valueName.map { "<\($0)>" }
                let names = option.names.map { "\\fB" + roff($0) + "\\fR" }.joined(separator: ", ")
                lines += [
                    ".TP", names + (value.map { " \\fI" + roff($0) + "\\fR" } ?? ""), roff(paragraph(option.help)),
                ]
            }
            if let discussion = help.discussion { lines += [".PP", roff(paragraph(discussion))] }
        }
        lines += [
            ".SH EXIT STATUS",
            "0 on success; otherwise a code of sysexits.h (64 usage, 65 malformed input, 66 a missing input, "
                + "73 an output that cannot be created, 74 an I/O error, 78 an invalid pipeline file), "
                + "3 when a refresh gate refused a build, 75 when another refresh holds the lock. "
                + "Errors are one line on standard error.",
            ".SH SEE ALSO",
            "The documentation in the source tree: README.md, docs/build.md, docs/search.md, docs/refresh.md.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Help text whose line breaks lay out a terminal column, as one paragraph.
    static func paragraph(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    /// `text` safe in a roff line: backslashes escaped, hyphens as minus signs (what a man page
    /// searched for `--pipeline` needs), a leading control character neutralised.
    private static func roff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
