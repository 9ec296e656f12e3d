internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

/// Why a document is read again, and for what: the fields a further pass may add candidates to.
struct RereadTrigger: Equatable {
    let fields: Set<Field>

    /// The one place that reads a record's reasons to decide on reading again: while a required field is
    /// uncertain, or no arithmetic or second reading confirms the total. Nil: one more pass is not worth its time.
    /// A field is uncertain by the rules (missing, ambiguous, a required field's rule confidence below `floor`, the
    /// pipeline's `acceptThreshold`), not by the calibrated probability: that model is fitted on the readings these
    /// passes give, so it must not decide them.
    static func of(record: DocumentRecord, totalConfirmed: Bool, floor: Double = 0.6, required: [Field] = Field.allCases) -> RereadTrigger? {
        var reasons = record.reasons.filter { if case .lowConfidence = $0 { false } else { true } }
        for field in required { if let f = record.trust[field], f.ruleConfidence < floor { reasons.append(.lowConfidence(field)) } }
        return of(reasons: reasons, totalConfirmed: totalConfirmed)
    }

    /// The total is read again while it is uncertain (missing, ambiguous, below the floor, against the page's
    /// arithmetic) or unconfirmed; the merchant while it is missing or below the floor. Uncertain dates and currencies
    /// are not read again for themselves: on the devset, with the second reader on, further passes turned as many
    /// dates wrong as right and no currency right (docs/benchmarks.md, "What each pass still buys").
    static func of(reasons: [ReviewReason], totalConfirmed: Bool) -> RereadTrigger? {
        let total: Set<ReviewReason> = [.missing(.total), .lowConfidence(.total), .ambiguous(.total), .arithmeticMismatch]
        let merchant: Set<ReviewReason> = [.missing(.merchant), .lowConfidence(.merchant)]
        var fields: Set<Field> = []
        if !totalConfirmed || !total.isDisjoint(with: reasons) { fields.insert(.total) }
        if !merchant.isDisjoint(with: reasons) { fields.insert(.merchant) }
        return fields.isEmpty ? nil : RereadTrigger(fields: fields)
    }
}

extension DocumentProcessor {
    /// Further reading: further passes while the trigger names fields to read again; their candidates join the first's,
    /// and the record is merged again after each (`merge`, Merge's function). An e-invoice's values come from its XML
    /// (`exact`): its pages are read once. Returns the extraction and the record as the last pass left them.
    func readFurther(
        _ reading: Reading, record: DocumentRecord, extraction: Extraction, exact: Bool, as kind: ParseAs, reader: inout PassReader,
        merge: (Extraction) -> DocumentRecord
    ) -> (extraction: Extraction, record: DocumentRecord) {
        var (extraction, record) = (extraction, record)
        let further = exact ? [] : furtherPasses(after: reading)
        for (index, pass) in further.enumerated() where reader.hasImages {
            guard
                let trigger = RereadTrigger.of(
                    record: record, totalConfirmed: extraction.totalConfirmed, floor: config.acceptThreshold, required: config.requiredFields)
            else { break }
            if config.passesOnLines {
                // The lines that hold the uncertain fields' candidates, read again; what it read on them joins.
                let chosen = DocumentProcessor.linesToReadAgain(for: trigger.fields, in: reading, extraction: extraction)
                guard let pages = reader.readLines(pass, of: reading, chosen: chosen) else { continue }
                let places = zip(reading.pages, chosen).flatMap { page, lines in
                    lines.map { Extraction.LinePlace(page: page.pageNumber, box: page.lines[$0].box) }
                }
                extraction = extraction.union(parsed(pages, as: kind).readOn(places), fields: trigger.fields)
            } else {
                if index + 1 < further.count { reader.prefetch(further[index + 1]) }
                guard case .success(let pages) = reader.read(pass) else { continue }
                extraction = extraction.union(parsed(pages, as: kind), fields: trigger.fields)
            }
            record = merge(extraction)
        }
        return (extraction, record)
    }

    /// The lines of each page of `reading` a further pass reads for `fields`: those a candidate for one of them was read
    /// on, the head of the first page for the merchant, and, where a field has no candidate at all (or `unsure`), every
    /// line tesseract read unsure; at most `SecondReadingStage.maxLinesPerPage` a page.
    static func linesToReadAgain(for fields: Set<Field>, in reading: Reading, extraction: Extraction, unsure: Bool = false) -> [[Int]] {
        let evidence = extraction.evidence(for: fields)
        let lacking = unsure || fields.contains { extraction.evidence(for: [$0]).isEmpty }
        return reading.pages.enumerated().map { index, page in
            guard page.source == .ocr else { return [] }
            var chosen: [Int] = []
            for (i, line) in page.lines.enumerated() where chosen.count < SecondReadingStage.maxLinesPerPage {
                let place = Extraction.LinePlace(page: page.pageNumber, box: line.box)
                let head = index == 0 && i < SecondReadingStage.headLines && fields.contains(.merchant)
                if head || evidence.contains(where: place.holds) || (lacking && line.meanConfidence < SecondReadingStage.unsureConfidence) {
                    chosen.append(i)
                }
            }
            return chosen
        }
    }

    /// The passes a Reread may take, in order: the other page segmentation modes, and (second) small print
    /// scaled to `textHeightTarget` pixel letters; each with the reading's languages, turns and threshold.
    func furtherPasses(after reading: Reading) -> [OCRPass] {
        let main = reading.pass
        var further = config.extraPassSegmentationModes.filter { $0 != main.pageSegmentationMode }
            .map {
                OCRPass(
                    languages: main.languages, pageSegmentationMode: $0, purpose: .mode, upright: main.upright,
                    adaptiveThreshold: main.adaptiveThreshold, laterLanguages: main.laterLanguages)
            }
        let largest = reading.pages.map { Double($0.width * $0.height) / 1e6 }.max() ?? 0
        if let height = reading.pages.first?.medianWordHeight,
            let factor = PageImage.upscaleFactor(textHeight: height, target: config.textHeightTarget, megapixels: largest)
        {
            further.insert(
                OCRPass(
                    languages: main.languages, pageSegmentationMode: main.pageSegmentationMode, purpose: .upscale, scale: factor,
                    upright: main.upright, adaptiveThreshold: main.adaptiveThreshold, laterLanguages: main.laterLanguages),
                at: min(1, further.count))
        }
        return further
    }
}
