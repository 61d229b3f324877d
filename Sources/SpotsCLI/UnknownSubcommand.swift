import SpotRequests

/// The subcommands' names, in the order `spots --help` lists them. (Here, not in main.swift,
/// whose globals are set only when the program runs, not when a test calls in.)
let subcommands = ["build", "cluster", "export", "inspect", "refresh", "report", "search", "serve"]

/// The error line for an unknown subcommand `name`: the nearest one suggested (`spots: unknown
/// subcommand 'serch'; did you mean search?`), else the help pointed to (`spots: unknown
/// subcommand 'x'; see 'spots --help'`).
func unknownSubcommand(_ name: String) -> String {
    let hint = Suggestions.nearest(to: name, among: subcommands).map { "did you mean \($0)?" }
    return "spots: unknown subcommand '\(name)'; " + (hint ?? "see 'spots --help'")
}
