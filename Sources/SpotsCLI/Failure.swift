import InputStreams
import OSMInput
import SpotIndex
import SpotOutput
import SpotPipeline
import SpotRefresh
import SpotSearch
import SpotServe
import SpotState
import Spots

/// How the program ends: the codes of BSD's sysexits.h where one fits, as docs/refresh.md's "Exit
/// codes and errors" lists them. SIGINT and SIGTERM end it with 128 + the signal (130, 143).
enum ExitCode: Int32 {
    /// Done as asked.
    case ok = 0
    /// `refresh` built an index that a gate refused to publish.
    case gateRefused = 3
    /// A bad or missing argument (EX_USAGE).
    case usage = 64
    /// Malformed input: XML, gzip, an index file; an element over a limit (EX_DATAERR).
    case dataError = 65
    /// An input missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// The server cannot listen where asked (EX_UNAVAILABLE).
    case unavailable = 69
    /// The output cannot be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// Reading or writing failed (EX_IOERR).
    case ioError = 74
    /// Another refresh holds the lock (EX_TEMPFAIL).
    case locked = 75
    /// An invalid pipeline file or category table (EX_CONFIG).
    case badConfiguration = 78
}

/// An error a command has already reported in its own form (the refresh's JSON log): the
/// program ends with `code` and prints nothing more.
struct ReportedFailure: Error {
    let code: ExitCode
}

/// How an error ends the program: its exit code.
func exitCode(for error: Error) -> ExitCode {
    switch error {
    case is UsageError: return .usage
    case let error as ReportedFailure: return error.code
    case let error as OSMInputError:
        switch error.kind {
        case .unreadable: return .noInput
        case .malformed: return .dataError
        case .io: return .ioError
        }
    case let error as IndexError: return error.kind == .unreadable ? .noInput : .dataError
    case let error as OutputError:
        switch error.kind {
        case .refused: return .usage
        case .cannotCreate: return .cannotCreate
        case .io: return .ioError
        }
    case is OutputFormatError: return .usage
    case let error as PipelineError: return error.isUnreadable ? .noInput : .badConfiguration
    case is SearchError: return .usage
    case let error as StateError: return error.kind == .unreadable ? .noInput : .dataError
    case is UpdateError: return .dataError
    case is HTTPServer.StartError: return .unavailable
    case let error as RefreshError:
        switch error.kind {
        case .locked: return .locked
        case .gateRefused: return .gateRefused
        case .nothingToRollBack: return .noInput
        case .cannotPublish: return .cannotCreate
        case .missingChanges: return .noInput
        }
    default: return .ioError
    }
}
