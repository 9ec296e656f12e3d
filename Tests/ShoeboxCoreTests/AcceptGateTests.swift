import Foundation
import Testing

@testable import ShoeboxCore
@testable import ShoeboxJudgement
@testable import ShoeboxParsing
@testable import ShoeboxReading

/// `acceptPrecision` as the precision of the accepted set (issue 34): the model's cross-validated curve turns it into a
/// per-record cut of P(all right), and a folder's declared currency decides what an inferred one is worth.
struct AcceptGateTests {
    /// A curve over 300 page-read documents: at P ≥ 0.9 200 accepted and 199 right (99.5 %), at 0.95 150 and all right,
    /// at 0.99 40 and all right; below 0.9 the wrong ones come in.
    static let curve = GateCurve(
        folds: 5, documents: 300,
        points: [
            GateCurve.Point(cut: 0, accepted: 260, right: 250), GateCurve.Point(cut: 0.8, accepted: 230, right: 225),
            GateCurve.Point(cut: 0.9, accepted: 200, right: 199), GateCurve.Point(cut: 0.95, accepted: 150, right: 150),
            GateCurve.Point(cut: 0.99, accepted: 40, right: 40)
        ])

    static func model(_ p: Double, curve: GateCurve? = AcceptGateTests.curve) -> TrustModel {
        let m = TrustModel.FieldModel(bias: log(p / (1 - p)), weights: [:])
        return TrustModel(fittedOn: "test", fields: ["total": m, "date": m, "currency": m], joint: m, gate: curve)
    }

    @Test func theCutIsTheLowestWhoseAcceptedSetReachesThePrecision() {
        let model = AcceptGateTests.model(0.5)
        // 0.99: the lowest cut with at least 100 records at 99 %: 0.9 (199 of 200), not 0.99 (a per-record threshold).
        let g = model.gate(for: 0.99)
        #expect(g.cut == 0.9 && g.reached)
        #expect(g.sentence.contains("P(all right) ≥ 0.900") && g.sentence.contains("99.5 % right, 200 of 300"), "\(g.sentence)")
        // 0.97: 0.8 (225 of 230 = 97.8 %).
        #expect(model.gate(for: 0.97).cut == 0.8)
        // 0.999 needs 1000 records before a precision that high says anything: out of reach, said, and the most precise
        // supported cut is used.
        let high = model.gate(for: 0.999)
        #expect(!high.reached)
        #expect(high.cut == 0.95, "\(high.sentence)")
        #expect(high.sentence.contains("cannot be reached"), "\(high.sentence)")
        // Off, and a model without a curve (the target is the cut, as before).
        #expect(model.gate(for: 0).cut == 0)
        #expect(AcceptGateTests.model(0.5, curve: nil).gate(for: 0.99).cut == 0.99)
        // A small, perfect top is not evidence: with 40 records at P ≥ 0.99 and nothing else reaching 0.99 over 100
        // records, 0.99 is out of reach.
        let thin = GateCurve(
            folds: 5, documents: 300,
            points: [GateCurve.Point(cut: 0.9, accepted: 200, right: 190), GateCurve.Point(cut: 0.99, accepted: 40, right: 40)])
        #expect(thin.lowestCut(reaching: 0.99) == nil)
        #expect(thin.best(for: 0.99)?.cut == 0.9)
        #expect(GateCurve.support(for: 0.99) == 100 && GateCurve.support(for: 0.9) == 30)
    }

    let source = SourceFile(path: "/x/a.jpg", relativePath: "trip/a.jpg", folder: "trip", kind: .jpeg, sha256: "00", size: 1)

    func record(
        _ lines: [String], language: String = "deu", precision: Double = 0.99, model: TrustModel, declared: CurrencyCode? = nil
    ) -> DocumentRecord {
        let merger = RecordMerger(
            acceptThreshold: 0.6, requiredFields: [.merchant, .date, .total, .currency], acceptPrecision: precision, model: model)
        return merger.merge(
            ReceiptParser(today: today).parse(pages: [page(lines)], language: language), source: source,
            language: LanguageGuess(language: language, confidence: 0.9), pages: 1,
            other: OtherSources(declaredCurrency: declared.map { DeclaredCurrency($0, by: "trip/.shoebox.json") }))
    }

    static let printed = ["REWE Markt GmbH", "Domstr. 20, 50668 Köln", "Datum 14.03.2026", "Brot 2,49", "Milch 1,19", "SUMME EUR 3,68"]
    /// The same receipt without a currency on it: EUR is inferred from the German.
    /// No currency printed, and one kind of country hint (the postcode): the currency is a guess.
    static let unprinted = ["REWE Markt", "Domstr. 20, 50668 Köln", "Datum 14.03.2026", "Brot 2,49", "Milch 1,19", "SUMME 3,68"]
    /// No currency printed, but a legal form beside the postcode: the page is placed in Germany.
    static let placed = ["REWE Markt GmbH", "Domstr. 20, 50668 Köln", "Datum 14.03.2026", "Brot 2,49", "Milch 1,19", "SUMME 3,68"]

    @Test func aRecordIsAcceptedAtTheCutNotAtThePrecision() {
        // P(all right) 0.95 per the model: under 0.99, over the curve's cut of 0.9.
        let r = record(AcceptGateTests.printed, model: AcceptGateTests.model(0.95))
        #expect(r.status == .accepted, "\(r.reasons)")
        // 0.85: under the cut; the fields under it are named.
        let held = record(AcceptGateTests.printed, model: AcceptGateTests.model(0.85))
        #expect(held.status == .review)
        #expect(Set(held.reasons) == [.lowConfidence(.total), .lowConfidence(.date), .lowConfidence(.currency)])
    }

    @Test func theFoldersCurrencyDecidesWhatAnInferredOneIsWorth() throws {
        let model = AcceptGateTests.model(0.999)
        // Nothing said: an inferred currency waits for a person.
        let alone = record(AcceptGateTests.unprinted, model: model)
        #expect(alone.currency?.code == "EUR")
        #expect(alone.reasons.contains(.currencyInferred))
        // The folder says EUR: inferred alike, no reason; the folder is named as confirming it.
        let same = record(AcceptGateTests.unprinted, model: model, declared: CurrencyCode("EUR"))
        #expect(!same.reasons.contains(.currencyInferred), "\(same.reasons)")
        #expect(same.status == .accepted, "\(same.reasons)")
        #expect(same.evidence[.currency]?.confirmedBy.contains(.folder) == true)
        // Its probability stays the model's: knowing the folder's currency does not make the total better read.
        #expect(same.confidence[.currency] == alone.confidence[.currency])
        // The folder says CHF, the page's language says EUR: still a reason, the folder's currency first among the
        // alternates for the person to pick.
        let other = record(AcceptGateTests.unprinted, model: model, declared: CurrencyCode("CHF"))
        #expect(other.currency?.code == "EUR")
        #expect(other.reasons.contains(.currencyInferred))
        let first = try #require(other.alternates[.currency]?.first)
        #expect(first.value == "CHF" && first.source == .folder && first.reason == "trip/.shoebox.json says CHF")
        // Placed in Germany by its hints: no reason alone; a folder saying CHF makes it one again, CHF offered first.
        #expect(!record(AcceptGateTests.placed, model: model).reasons.contains(.currencyInferred))
        let placedElsewhere = record(AcceptGateTests.placed, model: model, declared: CurrencyCode("CHF"))
        #expect(placedElsewhere.reasons.contains(.currencyInferred), "\(placedElsewhere.reasons)")
        #expect(placedElsewhere.alternates[.currency]?.first?.value == "CHF")
        // Printed EUR in a folder said to be MYR: a purchase abroad, read as printed, no reason.
        let abroad = record(AcceptGateTests.printed, model: model, declared: CurrencyCode("MYR"))
        #expect(abroad.currency?.code == "EUR" && abroad.total?.currency.code == "EUR")
        #expect(abroad.status == .accepted, "\(abroad.reasons)")
        #expect(abroad.alternates[.currency]?.contains { $0.value == "MYR" } != true)
    }

    @Test func theCurrencyKeyIsReadFromThePipelineAndTheFolder() throws {
        let config = try PipelineConfig.parse(Data(#"{"version": 1, "currency": "MYR"}"#.utf8), file: "p.json")
        #expect(config.currency?.code == "MYR")
        #expect(config.settingsText.contains("currencyMYR") && !PipelineConfig().settingsText.contains(" currency"))
        for bad in [#""eur""#, #""EURO""#, "5", #""E1R""#] {
            #expect(throws: PipelineConfig.ConfigError.self) {
                try PipelineConfig.parse(Data(#"{"version": 1, "currency": \#(bad)}"#.utf8), file: "p.json")
            }
            do {
                _ = try FolderSettings.parse(Data(#"{"currency": \#(bad)}"#.utf8), file: "trip/.shoebox.json")
                Issue.record("\(bad) was taken")
            } catch {
                #expect(error.message.contains("key \"currency\" must be a three-letter ISO 4217 code"), "\(error)")
            }
        }
        let folder = try FolderSettings.parse(Data(#"{"currency": "EUR", "categories": ["meals"]}"#.utf8), file: "f")
        #expect(folder.currency?.code == "EUR" && folder.categories == ["meals"])
        // A folder's language (issue 35): one of the languages Shoebox reads, by Tesseract's code; nothing else.
        #expect(try FolderSettings.parse(Data(#"{"language": "deu"}"#.utf8), file: "f").language == "deu")
        for bad in [#""German""#, #""DEU""#, #""osd""#, "7", #"["deu"]"#] {
            #expect {
                _ = try FolderSettings.parse(Data(#"{"language": \#(bad)}"#.utf8), file: "trip/.shoebox.json")
            } throws: { error in
                "\(error)".contains("key \"language\" must be one of \"eng\", \"deu\", \"spa\", \"fra\", \"msa\"")
            }
        }
    }
}
