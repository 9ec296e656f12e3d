internal import Foundation
public import ShoeboxCore
internal import ShoeboxParsing
public import ShoeboxReading

/// What each folder of a scan root says of its documents: the currency they are in (its `.shoebox.json`'s, else the
/// pipeline's) and the language they are written in (its `.shoebox.json`'s). A settings file that cannot be used says
/// nothing (the run names it; export refuses it).
public struct FolderDeclarations: Sendable {
    let pipeline: CurrencyCode?
    let folders: [String: CurrencyCode]
    /// The language each folder's settings say its documents are in (`FolderSettings.language`).
    let languages: [String: String]
    /// The settings files that could not be used, each with why.
    public let unusable: [FolderSettings.Unusable]

    public init(
        pipeline: CurrencyCode?, folders: [String: CurrencyCode] = [:], languages: [String: String] = [:],
        unusable: [FolderSettings.Unusable] = []
    ) {
        self.pipeline = pipeline
        self.folders = folders
        self.languages = languages
        self.unusable = unusable
    }

    /// The folders' settings under `root` (`folders`: the folder names of the files found; "" is the root itself, which
    /// has no settings file of its own).
    public init(root: String, folders: Set<String>, pipeline: CurrencyCode?) {
        self.init(folders: folders, pipeline: pipeline) { PathText.joined(root, $0) }
    }

    /// The folders' settings, each read from the folder `path` gives for it (none: the folder says nothing). The
    /// inbox's documents are read under the settings of their folder in the scan folder.
    public init(folders: Set<String>, pipeline: CurrencyCode?, path: (String) -> String?) {
        var found: [String: CurrencyCode] = [:]
        var languages: [String: String] = [:]
        var unusable: [FolderSettings.Unusable] = []
        for folder in folders.sorted() where !folder.isEmpty {
            guard let folderPath = path(folder) else { continue }
            switch FolderSettings.read(folderPath: folderPath) {
            case .success(let s):
                if let c = s.currency { found[folder] = c }
                if let l = s.language { languages[folder] = l }
            case .failure(let u): unusable.append(u)
            }
        }
        self.init(pipeline: pipeline, folders: found, languages: languages, unusable: unusable)
    }

    /// The settings of the one folder at `folderPath`, whose files have the folder "" (what `extract` reads).
    public init(folderPath: String, pipeline: CurrencyCode?) {
        switch FolderSettings.read(folderPath: folderPath) {
        case .success(let s):
            self.init(pipeline: pipeline, folders: s.currency.map { ["": $0] } ?? [:], languages: s.language.map { ["": $0] } ?? [:])
        case .failure(let u): self.init(pipeline: pipeline, unusable: [u])
        }
    }

    /// These, with each folder `settings` names said to be in its currency instead (`regress --folders`: what the
    /// folders' `.shoebox.json` would say, for a folder that is not the user's to write in).
    public func with(_ settings: [String: FolderSettings]) -> FolderDeclarations {
        var folders = self.folders
        var languages = self.languages
        for (folder, s) in settings {
            folders[folder] = s.currency
            languages[folder] = s.language
        }
        return FolderDeclarations(pipeline: pipeline, folders: folders, languages: languages, unusable: unusable)
    }

    /// The folders whose language the pipeline does not read (not among its `languages`): each named, its pages read
    /// in the pipeline's first-pass languages as if it said none.
    public func languagesNotRead(by languages: [String], firstPass: [String]) -> [FolderSettings.Unusable] {
        self.languages.sorted { $0.key < $1.key }.filter { !languages.contains($0.value) }.map { folder, language in
            let file = folder.isEmpty ? FolderSettings.fileName : "\(folder)/\(FolderSettings.fileName)"
            return FolderSettings.Unusable(
                file: file,
                reason: "\(StoredPath.shown(file)) says its documents are in \"\(language)\", which the pipeline does not read (its languages: "
                    + "\(languages.joined(separator: ", "))); they are read in \(firstPass.joined(separator: "+")) first. Add it to the "
                    + "pipeline file's \"languages\" or change the folder's")
        }
    }

    /// The currency of `folder`, and where it is said.
    public func of(_ folder: String) -> DeclaredCurrency? {
        if let c = folders[folder] {
            return DeclaredCurrency(c, by: folder.isEmpty ? "the folder's \(FolderSettings.fileName)" : "\(folder)/\(FolderSettings.fileName)")
        }
        return pipeline.map { DeclaredCurrency($0, by: "the pipeline file") }
    }

    /// What a record of `folder` was judged with, for its stored settings: a folder's own currency changed has its
    /// records judged again (the pipeline's is part of the pipeline's settings already).
    func settingsText(_ folder: String) -> String? {
        let parts = [folders[folder].map { "folder-currency \($0.code)" }, languages[folder].map { "folder-language \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
