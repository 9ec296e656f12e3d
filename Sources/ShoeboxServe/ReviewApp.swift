import Foundation
public import ShoeboxCore
public import ShoeboxJudgement
internal import ShoeboxStore

/// The review web app's routes, behind `ServeGuard`. Decisions go through the same code as the terminal review and
/// `review --apply`: `Review.validate` for what a person types, `RecordStore.decide` for what is saved.
///
/// - `GET /`: the app (HTML; its script and style at `/app.js`, `/app.css`).
/// - `GET /api/queue?state=&folder=&reason=`: counts per state, the records in that state (review by default), and
///   each folder's categories.
/// - `GET /api/record?source=`: one record as it stands, with the pipeline's suggestion, its pages' sizes and the
///   box of each field's evidence.
/// - `GET /api/page?source=&page=`: that page of the original (`PageView`).
/// - `POST /api/decide`: `{"source", "action": accept|reject|duplicate|not-duplicate|edit, "field", "value"}`.
/// - `POST /api/undo`: takes back the last decision.
/// - `POST /api/add`: an expense without a receipt, `{"folder", "fields": {"date", "merchant", "total", …}}`.
/// - `GET /api/series?source=`: the recurring series the record is a charge of, if any (`{"series": null}` else).
/// - `POST /api/cancel-series`: `{"merchant", "on": "YYYY-MM-DD"}`, through `Store.cancelSeries` like `recurring --cancel`.
public final class ReviewApp: @unchecked Sendable {
    let store: any RecordStore
    let guarding: ServeGuard
    let today: CalendarDay

    public init(store: any RecordStore, guarding: ServeGuard, today: CalendarDay) {
        self.store = store
        self.guarding = guarding
        self.today = today
    }

    public func handle(_ r: HTTPRequest) -> HTTPResponse {
        if let refusal = guarding.refusal(r) { return guarding.harden(refusal, for: r) }
        let response: HTTPResponse
        do {
            switch (r.method, r.path) {
            case ("GET", "/"), ("HEAD", "/"): response = page()
            case ("GET", "/app.js"): response = asset(PackageResources.app_js, "text/javascript; charset=utf-8")
            case ("GET", "/app.css"): response = asset(PackageResources.app_css, "text/css; charset=utf-8")
            // Browsers ask for it on their own; there is none.
            case ("GET", "/favicon.ico"): response = HTTPResponse(status: 204)
            case ("GET", "/api/queue"): response = try queue(r.query)
            case ("GET", "/api/record"): response = try record(r.query["source"] ?? "")
            case ("GET", "/api/page"): response = try page(r.query["source"] ?? "", number: Int(r.query["page"] ?? "1") ?? 0)
            case ("POST", "/api/decide"): response = try decide(r.body)
            case ("POST", "/api/undo"): response = try undo()
            case ("POST", "/api/add"): response = try add(r.body)
            case ("GET", "/api/series"): response = try series(of: r.query["source"] ?? "")
            case ("POST", "/api/cancel-series"): response = try cancelSeries(r.body)
            default: response = .text(404, "Nothing here: '\(r.path)'.")
            }
        } catch {
            response = .error(500, "the store could not be read or written: \(error). Check the output folder, then reload.")
        }
        return guarding.harden(response, for: r)
    }

    func page() -> HTTPResponse {
        let html = String(decoding: PackageResources.app_html, as: UTF8.self).replacingOccurrences(of: "{{csrf}}", with: guarding.csrf)
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(html.utf8))
    }

    func asset(_ bytes: [UInt8], _ type: String) -> HTTPResponse { HTTPResponse(status: 200, headers: [("Content-Type", type)], body: bytes) }

    /// The records as they stand now (the suggestion with every decision applied), by source.
    func current() throws -> [(suggestion: DocumentRecord, record: DocumentRecord)] { try store.effectiveRecords() }

    func queue(_ q: [String: String]) throws -> HTTPResponse {
        let all = try current().map(\.record)
        var counts: [String: Int] = [:]
        for s in RecordStatus.allCases { counts[s.rawValue] = 0 }
        for r in all { counts[r.status.rawValue, default: 0] += 1 }
        let state = q["state"].flatMap(RecordStatus.init(rawValue:)) ?? .review
        let items = all.filter { r in
            r.status == state && (q["folder"].map { $0.isEmpty || $0 == r.folder } ?? true)
                && (q["reason"].map { reason in reason.isEmpty || r.reasons.contains { $0.code == reason } } ?? true)
        }
        .sorted { $0.source < $1.source }
        let folders = Array(Set(all.map(\.folder))).sorted()
        return .json(
            200,
            QueueBody(
                counts: counts, state: state.rawValue, folders: folders,
                categories: Dictionary(uniqueKeysWithValues: folders.map { ($0, store.categories(forFolder: $0)) }),
                reasons: Array(Set(all.flatMap { $0.reasons.map(\.code) })).sorted(), items: items.map(QueueItem.init)))
    }

    func record(_ source: String) throws -> HTTPResponse {
        guard let found = try store.effectiveRecord(path: source) else {
            return .error(404, "no record '\(source)' in this store.")
        }
        return .json(
            200,
            RecordPageBody(
                record: RecordBody(record: found.record), suggestion: RecordBody(record: found.suggestion), today: today.iso,
                geometry: PageView.geometry(try store.pages(path: source), record: found.record),
                categories: store.categories(forFolderOf: source), editable: ReviewLimits.editableFields.map(\.rawValue),
                log: try store.decisionLog(path: source).map(LogEntry.init)))
    }

    /// A page of the record's original, found through the store (never a path from the request).
    func page(_ source: String, number: Int) throws -> HTTPResponse {
        guard number >= 1, number <= 10_000 else { return .text(404, "There is no page \(number).") }
        guard let file = try store.originalPaths()[source] else { return .text(404, "No record '\(source)' in this store.") }
        // An expense entered by hand has no file; nothing but a path under the scans' folder is opened.
        guard file.hasPrefix("/") else { return .text(404, "'\(source)' was entered by hand: there is no page to show.") }
        let turn = try store.pages(path: source).first { $0.pageNumber == number }?.turn ?? 0
        return PageView.image(file: file, page: number, turn: turn)
    }

    /// `POST /api/decide`'s body.
    struct DecideRequest: Decodable {
        let source: String
        let action: String
        /// An edit's field, by its key ("total", "referenceNumber").
        let field: String?
        /// An edit's value as typed, or a settlement's.
        let value: String?

        enum CodingKeys: String, CodingKey { case source, action, field, value }

        /// A field or value that is not text reads as missing: the edit is then refused with what it must name (422).
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            source = try c.decode(String.self, forKey: .source)
            action = try c.decode(String.self, forKey: .action)
            field = try? c.decodeIfPresent(String.self, forKey: .field)
            value = try? c.decodeIfPresent(String.self, forKey: .value)
        }
    }

    /// `POST /api/add`'s body: an expense without a receipt.
    struct AddRequest: Decodable {
        let folder: String
        /// Each field as typed; a value that is not text is named (`notText`), not dropped.
        let fields: [String: TypedText]
    }

    /// `POST /api/cancel-series`'s body.
    struct CancelSeriesRequest: Decodable {
        let merchant: String
        let on: String
    }

    /// A value a person typed: text, or something else the desk's page should never send.
    enum TypedText: Decodable {
        case text(String)
        case notText

        init(from decoder: any Decoder) throws {
            self = (try? decoder.singleValueContainer().decode(String.self)).map(TypedText.text) ?? .notText
        }
    }

    /// A request body as its type, or nil (the route answers 400 with what the body must be).
    static func body<T: Decodable>(_ bytes: [UInt8], as: T.Type) -> T? { try? JSONDecoder().decode(T.self, from: Data(bytes)) }

    func decide(_ body: [UInt8]) throws -> HTTPResponse {
        guard let o = ReviewApp.body(body, as: DecideRequest.self) else {
            return .error(400, "a decision is a JSON object with \"source\" and \"action\".")
        }
        let (source, actionName) = (o.source, o.action)
        guard let action = ReviewDecision.Action(rawValue: actionName) else {
            let names = ReviewDecision.Action.allCases.map(\.rawValue).joined(separator: ", ")
            return .error(422, "'\(actionName)' is not a decision; decisions are \(names).")
        }
        guard let record = try store.effectiveRecord(path: source)?.record else {
            return .error(404, "no record '\(source)' in this store.")
        }
        var decision = ReviewDecision(action: action)
        if action == .settle {
            switch Review.validateSettle(o.value ?? "", record: record) {
            case .success(let k): decision = .settle(k)
            case .failure(let e): return .error(422, e.message)
            }
        }
        if action == .edit {
            guard let field = o.field, let value = o.value else {
                return .error(422, "an edit names a \"field\" and its \"value\".")
            }
            switch Review.edit(field: field, value: value, record: record, today: today, categories: store.categories(forFolderOf: source)) {
            case .success(let d): decision = d
            case .failure(let e): return .error(422, e.message)
            }
        }
        try store.decide([(record, decision)], at: ISO8601DateFormatter().string(from: Date()), by: .browser)
        let now = try store.effectiveRecord(path: source)?.record ?? record
        return .json(200, DecidedBody(record: RecordBody(record: now)))
    }

    /// An expense without a receipt: `{"folder", "fields": {"date", "merchant", "total", …}}` (`Review.handEntry`).
    func add(_ body: [UInt8]) throws -> HTTPResponse {
        guard let o = ReviewApp.body(body, as: AddRequest.self) else {
            return .error(400, "an expense is a JSON object with \"folder\" and \"fields\".")
        }
        let folder = o.folder
        var fields: [String: String] = [:]
        for (k, v) in o.fields.sorted(by: { $0.key < $1.key }) {
            guard case .text(let s) = v else { return .error(422, "the \(k) must be text.") }
            if !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { fields[k] = s }
        }
        let folders = Array(Set(try current().map(\.record.folder))).sorted()
        switch Review.handEntry(
            folder: folder, fields: fields, id: Review.handEntryID(), today: today, folders: folders, categories: store.categories(forFolder: folder))
        {
        case .failure(let e): return .error(422, e.message)
        case .success(let record):
            try store.addByHand(record, at: ISO8601DateFormatter().string(from: Date()), by: .browser)
            let now = try store.effectiveRecord(path: record.source)?.record ?? record
            return .json(200, DecidedBody(record: RecordBody(record: now)))
        }
    }

    /// The series a record is a charge of: its own charges, or one it took after the series was cancelled.
    func series(of source: String) throws -> HTTPResponse {
        guard let record = try store.effectiveRecord(path: source)?.record, let s = try store.series(of: record, today: today) else {
            return .json(200, SeriesBody(series: Nullable(nil)))
        }
        return .json(200, SeriesBody(series: Nullable(SeriesItem(s))))
    }

    /// `{"merchant", "on"}`: the series marked cancelled from that day; its later charges go to review.
    func cancelSeries(_ body: [UInt8]) throws -> HTTPResponse {
        guard let o = ReviewApp.body(body, as: CancelSeriesRequest.self) else {
            return .error(400, "a cancellation is a JSON object with \"merchant\" and \"on\".")
        }
        let (typed, text) = (o.merchant, o.on)
        guard let day = CalendarDay(iso: text), text.count == 10 else {
            return .error(422, "'\(text)' is not a day: write the day the series was cancelled as YYYY-MM-DD.")
        }
        switch try store.cancelSeries(named: typed, on: day, today: today, at: ISO8601DateFormatter().string(from: Date())) {
        case .failure(let e): return .error(422, e.description)
        case .success(let done):
            return .json(200, CancelledBody(merchant: done.merchant, on: day.iso, flagged: done.flagged.map(\.source)))
        }
    }

    func undo() throws -> HTTPResponse {
        guard let (path, d) = try store.undoLastDecision() else { return .json(200, UndoBody(undone: Nullable(nil))) }
        return .json(200, UndoBody(undone: Nullable(UndoBody.Undone(source: path, action: d.action.rawValue, field: d.field?.rawValue ?? ""))))
    }
}
