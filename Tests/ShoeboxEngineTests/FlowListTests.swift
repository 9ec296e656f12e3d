import Foundation
import ShoeboxTestSupport
import Testing

@testable import ShoeboxPipeline

/// Issue 36, deliver 1: the flow is a list in code (`DocumentProcessor.steps`), and the two places a newcomer reads it
/// in words, the comment at the top of Pipeline.swift and the stage table of docs/architecture.md, name the same
/// stages in the same order: the runner's own list (`PipelineRunner.stages`), its "Documents" being the workers' steps
/// and then what each outcome passes on the runner's thread (`PipelineRunner.outcomeStages`).
struct FlowListTests {
    static let stages = PipelineRunner.stages.flatMap { stage in
        stage.name == "Documents" ? DocumentProcessor.steps.map(\.name) + PipelineRunner.outcomeStages.map(\.name) : [stage.name]
    }

    @Test func theRunnersStagesAreALists() {
        #expect(PipelineRunner.stages.map(\.name) == ["Intake", "Documents", "Re-judge"])
        #expect(PipelineRunner.outcomeStages.map(\.name) == ["Duplicates", "Route"])
        #expect(Self.stages.first == "Intake" && Self.stages.suffix(3) == ["Duplicates", "Route", "Re-judge"])
    }

    @Test func theStepsAreTheDocumentsFlowInOrder() {
        #expect(
            DocumentProcessor.steps.map(\.name) == [
                "E-invoice", "First reading", "Language", "Parse", "Second reading", "Items read again", "Merge", "Pages read whole",
                "Further reading", "Invoice merge", "Deadlines",
                "Memory"
            ])
    }

    @Test func pipelineSwiftsCommentNamesTheStagesOfTheList() throws {
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Sources/ShoeboxPipeline/Pipeline.swift"), encoding: .utf8)
        // A stage's line: "//   Name  description", the name at three spaces, followed by two or more spaces.
        let named = source.split(separator: "\n").prefix { !$0.hasPrefix("/// ") }.compactMap { line -> String? in
            guard line.hasPrefix("//   "), !line.hasPrefix("//    ") else { return nil }
            let rest = line.dropFirst(5)
            guard let gap = rest.range(of: "  ") else { return nil }
            return String(rest[..<gap.lowerBound])
        }
        #expect(named == Self.stages)
    }

    @Test func theArchitectureTableNamesTheStagesOfTheList() throws {
        let doc = try String(contentsOf: packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| stage | in → out | where |") })
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }
        let named = rows.map { row in String(row.dropFirst(2).prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces) }
        #expect(named == Self.stages)
    }

    /// Each step of the list is a function in a file of its own named after it (`Steps/FirstReadingStep.swift`).
    @Test func eachStepHasItsOwnFile() throws {
        let dir = packageRoot.appendingPathComponent("Sources/ShoeboxPipeline/Steps")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        let named = DocumentProcessor.steps.map { step in
            step.name.split(whereSeparator: { $0 == " " || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Step.swift"
        }
        #expect(Set(named) == files, "\(named) against \(files.sorted())")
    }

    /// Each step is a function of typed inputs to a typed output: no step file takes the document's state, which only
    /// the list (`DocumentProcessor.steps`) reads and writes.
    @Test func onlyTheListTouchesTheDocumentsState() throws {
        let dir = packageRoot.appendingPathComponent("Sources/ShoeboxPipeline/Steps")
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("DocumentState"), "\(file) takes the document's state")
        }
    }
}
