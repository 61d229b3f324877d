import OSMXML
import SpotIndex
import SpotPipeline
import SpotRefresh
import SpotSearch

/// The exit codes of ../shared/ARCHITECTURE.md (sysexits).
enum ExitCode: Int32 {
    case ok = 0
    case gateRefused = 3
    case usage = 64
    case dataError = 65
    case noInput = 66
    case cannotCreate = 73
    case ioError = 74
    case locked = 75
    case badConfiguration = 78
}

/// How an error ends the program: its exit code.
func exitCode(for error: Error) -> ExitCode {
    switch error {
    case is UsageError: return .usage
    case let error as OSMInputError:
        switch error.kind {
        case .unreadable: return .noInput
        case .malformed: return .dataError
        case .io: return .ioError
        }
    case let error as IndexError: return error.kind == .unreadable ? .noInput : .dataError
    case let error as OutputError: return error.kind == .cannotCreate ? .cannotCreate : .ioError
    case let error as PipelineError: return error.isUnreadable ? .noInput : .badConfiguration
    case is SearchError: return .usage
    case let error as RefreshError:
        switch error.kind {
        case .locked: return .locked
        case .gateRefused: return .gateRefused
        case .nothingToRollBack: return .noInput
        case .cannotPublish: return .cannotCreate
        }
    default: return .ioError
    }
}
