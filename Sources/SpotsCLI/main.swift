import Foundation
import SpotOutput
import SpotPipeline
import Spots

/// The subcommand named `name`: its help, options and body.
func command(named name: String) -> (help: Help, run: (Arguments) throws -> Void)? {
    switch name {
    case "build": (BuildCommand.help, BuildCommand.run)
    case "cluster": (ClusterCommand.help, ClusterCommand.run)
    case "export": (ExportCommand.help, ExportCommand.run)
    case "inspect": (InspectCommand.help, InspectCommand.run)
    case "report": (ReportCommand.help, ReportCommand.run)
    case "refresh": (RefreshCommand.help, RefreshCommand.run)
    case "search": (SearchCommand.help, SearchCommand.run)
    case "serve": (ServeCommand.help, ServeCommand.run)
    case "update": (UpdateCommand.help, UpdateCommand.run)
    default: nil
    }
}

/// Runs the command line and returns the exit code.
func main(_ arguments: [String]) -> ExitCode {
    guard let first = arguments.first else {
        printError("spots: missing subcommand\n" + overview)
        return .usage
    }
    if first == "-h" || first == "--help" || (first == "help" && arguments.count == 1) {
        print(overview, terminator: "")
        return .ok
    }
    if first == "--version" {
        print("spots \(SpotsVersion.version)")
        return .ok
    }
    if first == "help", arguments[1].hasPrefix("-") {
        do {
            print(try HelpDocument.text(Array(arguments.dropFirst())), terminator: "")
            return .ok
        } catch {
            printError("spots: \(error)\nUSAGE: spots help [<subcommand>] | --man | --completions bash|zsh")
            return .usage
        }
    }
    if first == "help", let command = command(named: arguments[1]) {
        print(command.help.text, terminator: "")
        return .ok
    }
    guard let command = command(named: first) else {
        printError(unknownSubcommand(first))
        return .usage
    }
    do {
        let parsed = try Arguments(Array(arguments.dropFirst()), options: command.help.options)
        if parsed.flag("--help") {
            print(command.help.text, terminator: "")
            return .ok
        }
        // SIGINT and SIGTERM remove temporary outputs, but for the server, which writes none
        // and stops gracefully on them itself (SpotServer).
        if command.help.command != ServeCommand.help.command { AtomicOutput.removeTemporariesOnTermination() }
        try command.run(parsed)
        return .ok
    } catch let reported as ReportedFailure {
        return reported.code
    } catch {
        // How to call the command is shown after a mistake in calling it, not after a request
        // (a search, a cluster id) that is well formed but cannot be answered.
        printError("spots: \(error)" + (error is UsageError ? "\nUSAGE: \(command.help.usage)" : ""))
        return exitCode(for: error)
    }
}

// A closed output pipe (`spots export | head -1`) ends the program quietly by SIGPIPE, as it
// ends cat, even when the parent ignored the signal.
signal(SIGPIPE, SIG_DFL)
exit(main(Array(CommandLine.arguments.dropFirst())).rawValue)
