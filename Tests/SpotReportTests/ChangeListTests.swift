import Foundation
import SpotIndex
import Spots
import Testing

@testable import SpotReport

/// `report --against` names what changed (issue: "Reports that name what changed"): each spot
/// added, removed, moved, renamed or recategorized, in JSON, in CSV (`--list changes`) and in
/// HTML tables linked to openstreetmap.org.
@Suite("Named changes")
struct ChangeListTests {
    static let metresPerDegree = Coordinate.earthRadius * .pi / 180

    /// Older and newer indexes: 2 renamed, 3 moved 55 m, 4 recategorized, 5 removed, 7 added, 1 and
    /// 6 unchanged.
    static let diff = Result { () throws -> ReportDiff in
        let older = try Fixtures.write([
            Fixtures.spot(1, .cafe, name: "Engel"), Fixtures.spot(2, .cafe, name: "Fazer"),
            Fixtures.spot(3, .cafe, name: "Ekberg"), Fixtures.spot(4, .bank, name: "Nordea"),
            Fixtures.spot(5, .bank, name: "Aktia"), Fixtures.spot(6, .atm),
        ])
        let newer = try Fixtures.write([
            Fixtures.spot(1, .cafe, name: "Engel"), Fixtures.spot(2, .cafe, name: "Fazer Café"),
            Fixtures.spot(3, .cafe, latitude: 60.17 + 55 / metresPerDegree, name: "Ekberg"),
            Fixtures.spot(4, .atm, name: "Nordea"), Fixtures.spot(6, .atm), Fixtures.spot(7, .cafe, name: "Kappeli"),
        ])
        return try #require(try Fixtures.report(newer, against: older).diff)
    }

    @Test("each change is named with its reference, name and category, and what it was")
    func changes() throws {
        let references = try Self.diff.get().references
        #expect(references.changes(.added).map(\.ref.id) == [7])
        #expect(references.changes(.removed).map { "\($0.ref) \($0.name!) \($0.category!)" } == ["n5 Aktia bank"])
        let moved = try #require(references.changes(.moved).first)
        #expect(moved.ref.id == 3 && abs((moved.metres ?? 0) - 55) < 0.5)
        #expect(references.changes(.renamed).map { "\($0.nameBefore!) → \($0.name!)" } == ["Fazer → Fazer Café"])
        let recategorized = try #require(references.changes(.recategorized).first)
        #expect(recategorized.categoryBefore == .bank && recategorized.category == .atm)
        #expect((references.added, references.removed, references.moved) == (1, 1, 1))
    }

    @Test("JSON (schema 2) lists every change under diff.changes")
    func json() throws {
        let report = try Fixtures.report(
            try Fixtures.write([Fixtures.spot(1, .cafe, name: "B")]),
            against: try Fixtures.write([Fixtures.spot(1, .cafe, name: "A")]))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(report).utf8)) as? [String: Any])
        #expect(json["schema_version"] as? Int == 2)
        let changes = try #require((json["diff"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])
        #expect(Set(changes.keys) == ["added", "removed", "moved", "renamed", "recategorized"])
        #expect(changes["renamed"]?.first?["name_before"] as? String == "A")
        #expect(changes["renamed"]?.first?["ref"] as? String == "n1")
    }

    @Test("CSV lists one row per change, with a link to the object")
    func csv() throws {
        let text = ReportFormat.changesCSV(try Self.diff.get())
        let rows = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first == "change,ref,name,category,distance_m,name_before,category_before,url")
        #expect(rows.count == 1 + 5)
        #expect(rows.contains("renamed,n2,Fazer Café,cafe,,Fazer,,https://www.openstreetmap.org/node/2"))
        #expect(rows.contains("recategorized,n4,Nordea,atm,,,bank,https://www.openstreetmap.org/node/4"))
    }

    @Test(
        "HTML: warnings first on the page, a table per kind with links, at most 500 rows and the command for the rest")
    func html() throws {
        let older = try Fixtures.write((1...620).map { Fixtures.spot(Int64($0), .cafe, name: "Cafe \($0)") })
        let newer = try Fixtures.write((1...20).map { Fixtures.spot(Int64($0), .cafe, name: "Cafe \($0)") })
        let report = try Fixtures.report(newer, against: older)
        let page = ReportFormat.html.render(report)
        let warnings = try #require(page.range(of: "<section id=\"warnings\">"))
        #expect(warnings.lowerBound < (page.range(of: "id=\"totals\"")?.lowerBound ?? page.endIndex))
        #expect(page.contains("Removed (600)"))
        #expect(page.components(separatedBy: "href=\"https://www.openstreetmap.org/node/").count - 1 == 500)
        #expect(page.contains("… and 100 more: spots report \(newer) --against \(older) --format csv --list changes"))
    }
}
