import SpotRequests

// The subcommands as `spots --help` lists them. (Here, not in main.swift, whose globals are set
// only when the program runs, not when a test or `spots help --man` reads them first.)

/// The subcommands' names, in the order `spots --help` lists them.
let subcommands = ["build", "cluster", "export", "inspect", "refresh", "report", "search", "serve", "update"]

/// What `spots --help` prints.
let overview = """
    OVERVIEW: Build and query offline place-search indexes from OpenStreetMap extracts.

    USAGE: spots <subcommand>

    SUBCOMMANDS:
      build                   Build an index from OSM extracts (XML, plain, gzip or bzip2; PBF).
      cluster                 Cluster an index's spots for a map viewport and zoom.
      export                  Export an index's spots as NDJSON, GeoJSON or CSV.
      inspect                 Show an index's header, counts and metadata; verify checksums.
      refresh                 Rebuild a published index nightly; publish only what passes the gates.
      report                  Report category coverage (text, JSON, CSV, HTML) and changes.
      search                  Search an index: nearby, region, text, category, references.
      serve                   Serve an index over HTTP: Photon's API and Spots' own.
      update                  Apply osmChange files to an index built with --keep-state.

    OPTIONS:
      -h, --help              Show help information.
      --version               Show the version.

      See 'spots help <subcommand>' for a subcommand's help.

    """

/// The error line for an unknown subcommand `name`: the nearest one suggested (`spots: unknown
/// subcommand 'serch'; did you mean search?`), else the help pointed to (`spots: unknown
/// subcommand 'x'; see 'spots --help'`).
func unknownSubcommand(_ name: String) -> String {
    let hint = Suggestions.nearest(to: name, among: subcommands).map { "did you mean \($0)?" }
    return "spots: unknown subcommand '\(name)'; " + (hint ?? "see 'spots --help'")
}
