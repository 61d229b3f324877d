import Foundation
import Spots

/// How numbers and shared phrases appear in reports, the same in every format.
enum Figures {
    /// A fraction with four decimals, as JSON, CSV and HTML data carry shares: "0.1238".
    static func fraction(_ value: Double) -> String { String(format: "%.4f", value) }

    /// A fraction as a percentage with one decimal, for people: "12.4%".
    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    /// A relative change in percent with two decimals, as JSON and CSV carry it: "-12.50".
    static func percentNumber(_ value: Double) -> String { String(format: "%.2f", value * 100) }

    /// A signed integer: "+3", "-2", "0".
    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

    /// A relative change as a signed percentage, "+3.9%", "-100.0%"; "new" when there was
    /// nothing before.
    static func signedPercent(_ value: Double?) -> String {
        guard let value else { return "new" }
        return (value > 0 ? "+" : "") + percent(value)
    }

    /// A fixed-point coordinate with seven decimals: "60.1699000".
    static func degrees(_ valueE7: Int32) -> String { Coordinate.decimalString(valueE7) }

    /// Degrees with four decimals (about 10 m), for the edges of a grid cell.
    static func roughDegrees(_ value: Double) -> String { String(format: "%.4f", value) }

    /// The warning for a category that fell by more than `maxDrop`, without a "warning:" prefix:
    /// "cafe fell from 90 to 0 spots (-100.0%), more than the 20.0% allowed".
    static func warning(_ change: CategoryChange, maxDrop: Double) -> String {
        "\(change.name) fell from \(change.before) to \(change.after) spots (\(signedPercent(change.relativeChange))), "
            + "more than the \(percent(maxDrop)) allowed"
    }
}

extension GeoBox {
    /// The box's edges as report formats list them: west, south, east, north (as GeoJSON).
    var edgesE7: [Int32] { [westE7, southE7, eastE7, northE7] }
}
