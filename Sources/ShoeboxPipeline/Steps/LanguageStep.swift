internal import Foundation
internal import ShoeboxCore
internal import ShoeboxEngines
internal import ShoeboxJudgement
internal import ShoeboxParsing
internal import ShoeboxReading

extension DocumentProcessor {
    /// Language: detected from the text of all pages. When the first pass did not read in it, the pages are
    /// read again in it (with the first reading's upright and threshold settings), and kept unless they read worse.
    func detectLanguage(_ reading: inout Reading, reader: inout PassReader) -> LanguageGuess {
        let guess = cpu.measure("language") { language.run(reading.pages) }
        guard config.languagePass, reader.hasImages, let languages = ocr.languagesAfterDetection(guess, readIn: reading.pass.languages)
        else { return guess }
        var pass = OCRPass(languages: languages, pageSegmentationMode: config.pageSegmentationMode, purpose: .language)
        pass.upright = reading.pass.upright
        pass.adaptiveThreshold = reading.pass.adaptiveThreshold
        let again: [OCRPage]
        if config.passesOnLines {
            // The lines that matter read in the language: the head, every line a candidate stands on, and those read unsure.
            let extraction = parsed(reading.pages, as: ParseAs(guess: guess, screen: nil))
            let chosen = DocumentProcessor.linesToReadAgain(for: Set(Field.allCases), in: reading, extraction: extraction, unsure: true)
            guard let pages = reader.readLines(pass, of: reading, chosen: chosen) else { return guess }
            again = pages
            pass.onLines = true
        } else if reading.pass.laterLanguages == languages, reading.pages.count > 1 {
            // The later pages were read in this language already (tesseract's reading of them, from the cache): the
            // first page is read in it alone, and the reading is the whole pass's, kept as that.
            guard case .success(let head) = reader.read(pass, range: 0..<1), case .success(let read) = reader.read(reading.pass) else { return guess }
            again = head + read.dropFirst()
            reader.keep(pass.name, again)
        } else {
            guard case .success(let pages) = reader.read(pass) else { return guess }
            again = pages
        }
        guard OCRStage.mean(again) >= OCRStage.mean(reading.pages) - 1 else { return guess }
        reading = Reading(pages: again, pass: pass)
        return LanguageGuess(language: guess.language, confidence: max(guess.confidence, language.run(again).confidence))
    }
}
