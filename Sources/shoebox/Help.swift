enum Help {
    static let main = """
        shoebox — turn a folder of receipt and invoice scans into checked, finance-ready records.

        usage: shoebox <command> [options]

        commands:
          run SCANS        process every scan under SCANS (one sub-folder per purpose) into the store
          extract FILE…    read single files and print what Shoebox finds (nothing is stored)
          status           show how many documents are accepted, in review, duplicates or failed
          review           work through the records the pipeline was not sure about (or --export / --apply)
          serve            the same review in a browser, on this machine only (127.0.0.1)
          rescore          judge the records in review again with what the merchant memory learned
          memory           list or forget what the merchant memory learned from confirmed records
          manifest         what an agent filing documents may know: folders, their settings, the sidecar's keys
          inbox            take and read what an agent filed into OUT/inbox, a result beside each (--watch)
          mcp              an MCP server on stdio for an agent: manifest, file a document, status, review list
          deadlines        the days by which to pay, return, claim, object or give notice, overdue first
          recurring        series of charges from one shop at a regular cadence, and the monthly burn
          export           write exports/<folder>.zip: renamed originals, CSV, XLSX, JSON, totals, ledger
          import           merge a store exported with `export --format json` into this one
          worker           read documents a run queued in a PostgreSQL store, on any machine
          regress DIR      compare extraction with the expected values of fixtures in DIR

        options:
          -h, --help       show help (also after any command: shoebox run --help)
          --version        print the versions of Shoebox and the libraries it runs on, whether its
                           tesseract patches are in effect, whether the second reader is installed
                           and usable (if not, which part and why), and the cut of P the default
                           acceptPrecision stands for by the trust model's cross-validated curve

        environment:
          TESSDATA_PREFIX  tesseract's language data (default /usr/share/tesseract-ocr/5/tessdata)
          OMP_THREAD_LIMIT tesseract's threads per page; Shoebox sets 1 when it is unset
          SHOEBOX_READERS  the folder of the second reader's parts (default /usr/local/lib/shoebox,
                           where make setup installs them), each a regular file (not a link); without
                           them, or with one not usable, tesseract reads alone and the run says why
          SHOEBOX_READER_MODEL
                           the second reader's recognition model by its file: PP-OCRv6_small_rec.onnx
                           (default), ch_PP-OCRv4_rec_folded.onnx (cheaper, fewer fields right) or
                           PP-OCRv6_tiny_rec.onnx; another name turns the second reader off, saying why
          SHOEBOX_STORE    a PostgreSQL store's URL, as --store gives it (--store wins)
          SHOEBOX_INBOX_WAIT_SECONDS
                           how long half a pair waits in the inbox for its other half before it is
                           refused by name (0…86400, default 600)
          SHOEBOX_STORE_RETRY_SECONDS
                           how long a command waits for a PostgreSQL server that went away or has no
                           connection left, 0…3600 (default 60)
          SHOEBOX_TESSERACT_PATCHES=off
                           read without the patches that make tesseract faster and lighter (the same
                           records, slower); they are also off when a start-up check does not see them
                           work or tesseract is not the version they were written for

        Every command that works on a store takes --out DIR (default ./shoebox-out), and --store URL
        (or SHOEBOX_STORE) for a PostgreSQL store many machines share: postgresql://USER@HOST/DATABASE, the
        password never in it (PGPASSWORD or ~/.pgpass); --out then holds only the files a command writes.
        Exit codes:
        \(Help.exitCodes)
        """

    static let run = """
        usage: shoebox run SCANS [--out DIR] [--store URL [--no-read]] [--jobs N] [--pipeline FILE] [--today YYYY-MM-DD] [--wait]
                             [--log-json FILE]

        Processes every file under SCANS. The folder of a file is its first path component under SCANS.
        Files the store already finished (same path, same bytes) are skipped, so a killed or repeated run
        only does what is new. SCANS is never written to.

        A JSON file next to a scan, named after it (IMG_0412.jpg.json), is that scan's sidecar: fields a
        person or another tool gave ("merchant", "date", "total", "currency", "referenceNumber"; "receivedOn",
        the day a fine's letter arrived; "documentKind": receipt, invoice, credit-note, not-a-purchase, contract,
        fine or payment-confirmation; "language": eng, deu, spa, fra or msa, what its pages are first read in, over its folder's
        .shoebox.json). It is checked like any reading; agreeing raises confidence, disagreeing sends the record to
        review (sources-disagree; a kind the page contradicts: document-kind-disagrees). A sidecar written,
        changed or removed after a run has its record judged again on the next run.
        Copies of a document already in the store are kept as duplicates (same bytes) or sent to review as
        possible duplicates (possible-duplicate: same paper scanned again, or the same purchase; never
        another total, day or seller), naming the other record; so are the same paper read with another
        total, day or seller (same-paper-reads-differently) and an e-invoice of the same seller and number
        with another total (e-invoice-reissued). A same-bytes duplicate is read as a document of its own
        once its original changes or goes away.

        E-invoices are read from their XML: a standalone CII, ZUGFeRD 1.0 or UBL invoice (XRechnung, Peppol),
        and the invoice XML attached to a ZUGFeRD / Factur-X PDF, checked against its own arithmetic and
        the printed page. XML with a DTD or entities, not in UTF-8, or over 16 MiB is refused unread; up to
        16 MiB a well-formed invoice is read, a large base64 attachment inside it included.

        Links are not followed, and a sidecar that is a link, a FIFO or over 1 MiB is not read. Every other
        file ends in a named state (a link, FIFO or device: not-a-regular-file; a name that is not UTF-8:
        bad-file-name; a name with a control character such as a tab or line break: control-character-in-name,
        listed with U+FFFD in its place; a file gone since an earlier run: file-removed). A folder that cannot
        be read is named at the end, and the run exits \(ExitCode.finishedWithFailures.rawValue). A document that crashed an earlier run fails as
        reader-crashed.

        Writes DIR/store.sqlite, DIR/records.jsonl (one JSON line per document, every state) and
        DIR/review/queue.jsonl (the records waiting for a person, with reasons).

          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one: the documents to read are
                             queued there with their bytes, read by any `shoebox worker` and by this run,
                             and stored by this run in path order (it waits for the workers)
          --no-read          with --store: leave all reading to workers
          --jobs N           OCR worker threads, 1…64 (default: the pipeline's jobs, 0 = one per core)
          --pipeline FILE    pipeline settings (default: pipelines/default.json if present, else built-in)
          --today DATE       the day dates are checked against (default: the system's date)
          --wait             when another run is using DIR, wait for it instead of stopping
          --log-json FILE    write one JSON event per line to FILE (started, each document, notes, finished;
                             finished also says which tesseract patches were on)

        On a terminal, a live line on stderr shows files, pages, pages/s and the ETA; nothing of it otherwise.
        At the end: counts per state and per failure reason, pages and pages/s.

        One run at a time works in an output folder (nor does an export, import or review --apply work
        beside it); a second one stops with exit \(ExitCode.busy.rawValue) (or waits with --wait).

        \(Help.exits([
            .success: "all documents done", .finishedWithFailures: "finished with failed documents", .usage: "usage",
            .scanFolderMissing: "SCANS missing",
            .outputUnusable: "output folder or store unusable (not writable, a file, run.lock not a file: the reason is named), or the --log-json file could not be written (the records are stored)",
            .engineMissing: "OCR engine missing", .pipelineFileInvalid: "pipeline file invalid",
            .busy: "another run, export, import or review --apply holds DIR's lock"
        ]))
        """

    static let extract = """
        usage: shoebox extract FILE… [--json] [--text] [--explain] [--pipeline FILE] [--today YYYY-MM-DD] [--jobs N]

        Runs the pipeline on single files and prints what it found. Nothing is stored.

          --json             one JSON object per line, per document (the machine-readable record)
          --text             also print the text of every page (OCR or PDF text layer), line by line, and
                             the lines the second reader read again (headed "ocr-ppocr")
          --explain          also print every candidate per field with its score, role, line, reader and
                             reasons, and both readers' readings of the lines scored
          --pipeline FILE    pipeline settings
          --today DATE       the day dates are checked against (default: the system's date)
          --jobs N           OCR worker threads, 1…64 (default: the pipeline's jobs, 0 = one per core)

        \(Help.exits([
            .success: "all read", .finishedWithFailures: "some failed", .usage: "usage", .engineMissing: "OCR engine missing",
            .pipelineFileInvalid: "pipeline file invalid"
        ]))
        """

    static let status = """
        usage: shoebox status [--out DIR] [--store URL] [--accuracy]

        Shows the documents in the store by state (decisions made in review included), which readers are
        installed, the review queue with reasons, and failures with what to do about them.

          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
          --accuracy         per field, how often the pipeline's suggestion was what a person confirmed in
                             review: how well Shoebox reads in real use; and the decisions in force by
                             where they were made (terminal, browser, review --apply file), and how many undone
        """

    static let memory = """
        usage: shoebox memory list [--json] [--out DIR] [--store URL]
               shoebox memory forget KEY [--out DIR] [--store URL] [--wait]

        The merchant memory: every record a person accepts or corrects in review (terminal, browser or
        review --apply) teaches it the keys its page prints that name the shop (tax-id, phone, domain,
        address, head: the letterhead's first letters) with the name the person confirmed, and the
        category, currency and payment method they settled on. Later documents with those keys get that
        name as a candidate (provenance "memory", with its evidence: "same tax ID as 4 confirmed records").
        A tax ID or a web domain names a shop alone; a phone, an address or a letterhead needs another key
        beside it. A key confirmed with several shops (a mall's phone) names none alone. Undoing a
        decision takes back what it taught. `shoebox rescore` applies the memory to the records in review.

          list               every key, the shop it names (the latest confirmed name), how many records
                             confirmed it, and other names it was confirmed with; --json: the same as JSON
          forget KEY         forget a key (as list shows it: kind:value); a record confirmed later with
                             it teaches it again
          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
          --wait             wait for another command holding the output folder's lock (forget)
        """

    static let inbox = """
        usage: shoebox inbox [--out DIR] [--store URL] [--watch [--every SECONDS]] [--jobs N] [--pipeline FILE] [--today YYYY-MM-DD]

        Takes what an agent filed into OUT/inbox/<folder>/: each document with its sidecar (NAME and
        NAME.json, the sidecar naming its "agent"), written to a temporary name and renamed into place,
        the document first. Each pair is moved to inbox/processed/<folder>/, read like any scan (the
        sidecar's values checked against the page, never taken over it), and given NAME.result.json
        beside it: the record's id, status and reasons. A pair that cannot be taken (a sidecar that is
        not JSON, over 1 MiB, names no agent or another folder; a link; a document still without its
        sidecar after SHOEBOX_INBOX_WAIT_SECONDS, default 600) is moved to inbox/failed/<folder>/ with a
        result naming its code and what to do. A sidecar still without a document then is an expense
        without a receipt: entered as a person enters one (merchant, date, total), marked the agent's,
        waiting in review for the person. `shoebox run` does the same after its scan folder. A killed
        pass loses nothing: the next one finishes what it began.

          --watch            take and read again every --every seconds (default 5) until stopped
          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
        """

    static let mcp = """
        usage: shoebox mcp [--out DIR] [--allow DIR] [--store URL] [--pipeline FILE] [--today YYYY-MM-DD]

        A Model Context Protocol server on standard input and output (JSON-RPC 2.0, one message a line;
        revision 2026-07-28 by server/discover, and the initialize handshake of 2024-11-05 to 2025-11-25),
        for an AI agent filing documents for a person. Its tools: read_manifest (the folders, their
        settings, the sidecar's fields), file_document (copies a file from the --allow folder into
        OUT/inbox/<folder>/ with a sidecar of the fields given; the next `shoebox run` or `shoebox inbox`
        reads it and checks them against the page), document_status (what came of a filed document) and
        list_review (what waits for the person, with reasons). No tool edits or deletes a record.

          --allow DIR        the folder whose files an agent may file (default: the current folder);
                             a path outside it, with '..', or a link is refused
          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
        """

    static let manifest = """
        usage: shoebox manifest [--json] [--out DIR] [--store URL]

        Read only: what an agent (or any program) filing documents for a person may know, without
        touching the store. The folders the store knows, each with how many documents it holds, its
        scan folder, and what its .shoebox.json says (categories, currency, language; a settings file
        that cannot be used is named); the keys a sidecar may carry, each with its format and an
        example; the manifest's and the sidecar schema's versions. docs/agents.md describes every key.

          --json             the manifest as JSON (manifestVersion, shoebox, store, inbox, folders, sidecar)
          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
        """

    static let deadlines = """
        usage: shoebox deadlines [--out DIR] [--store URL] [--within DAYS] [--json] [--today YYYY-MM-DD]

        Lists the open deadlines of the store's accepted records and of those waiting in review (marked),
        overdue first, then by day: an invoice's due day (read from its terms, "payable within 14 days",
        "Zahlungsziel 30 Tage netto", or its e-invoice XML), and the return window and warranty of a folder's
        purchases, a fine's windows and a contract's notice day when the pipeline file sets the folder's
        presets ("deadlines": {"purchases": {"returnWindowDays": 30, "warrantyMonths": 24}}, "fines":
        {"documentKind": "fine", "payReducedDays": 14, "objectionDays": 14}}). Each day is counted by
        Shoebox from the document, never moved over weekends or holidays, and is not legal advice. A deadline
        met is settled in review (t in the terminal, "settled" in the browser, "settle" in a review file).

          --within DAYS      only what is due within DAYS days from today (overdue ones always)
          --json             one object per deadline: day, kind, overdue, daysLeft, merchant, total,
                             currency, source, recordStatus, explanation, anchor
          --today DATE       count from this day instead of the system date
        """

    static let recurring = """
        usage: shoebox recurring [--out DIR] [--store URL] [--json] [--today YYYY-MM-DD] [--cancel NAME --on YYYY-MM-DD [--wait]]

        Finds series of charges from the same shop at a regular cadence (weekly, monthly, quarterly,
        yearly) among the accepted records and the charges in review as charged-after-cancellation: at
        least three charges, each within a few days of its due day (1, 4, 7, 10), a changed price kept
        in its series. Per series: cadence, amount and its changes, payment method and card, last
        charge, next expected day and status (active, stopped, cancelled, charged-after-cancellation);
        then the monthly burn per currency, and what was charged in each of the last twelve months, by
        payment method and by card (scheme and last four digits, where the receipts print them).

          --json             {"series": [{merchant, cadence, amount, currency, paymentMethod, card,
                             firstCharge, lastCharge, nextExpected, status, history}], "monthlyBurn",
                             "byMonth", "byPaymentMethod", "byCard"}
          --today DATE       judge "stopped" from this day instead of the system date
          --cancel NAME      mark the series NAME (or a unique part of it) cancelled from --on DAY: any
                             later charge the pipeline accepted goes to review as
                             charged-after-cancellation (now and in every run, whose summary names it),
                             and the series' status says so; an unknown NAME is refused with the
                             closest series (exit \(ExitCode.usage.rawValue))
          --on DAY           the day it was cancelled, from the series' first charge to today; a day
                             before 1900, after today or before the first charge is refused (exit \(ExitCode.usage.rawValue))
          --wait             wait for another command holding the output folder's lock (--cancel)
        """

    static let worker = """
        usage: shoebox worker [--store URL] [--jobs N] [--pipeline FILE] [--out DIR] [--lease SECONDS] [--attempts N]
                             [--until-empty]

        Reads documents that `shoebox run SCANS --store URL` queued in a PostgreSQL store, on this machine or
        any other: their bytes come from the store, so no shared folder is needed. Claims up to N documents at
        a time under a lease it renews while it reads; a worker that dies loses its claim when the lease runs
        out (60 s) and another takes the document (after three such attempts it fails as reader-crashed). It
        reads only documents queued under its own settings: start it with the run's pipeline file, and with
        the same tesseract and second reader. The run stores what the workers read, in path order.

          --store URL        the store (or SHOEBOX_STORE); a password comes from PGPASSWORD or ~/.pgpass
          --jobs N           documents read at once (default: the pipeline's jobs, else the processors)
          --pipeline FILE    the pipeline file (default pipelines/default.json, else the built-in settings)
          --out DIR          where the OCR cache is kept (default ./shoebox-out)
          --lease SECONDS    how long a claim holds without this worker renewing it, 1…3600 (default 60): a
                             document of a worker that died is taken by another this long after
          --attempts N       workers that may die holding one document before it fails as reader-crashed,
                             1…100 (default 3)
          --until-empty      stop when nothing is queued or being read and no run is taking documents in
                             (default: wait for more until stopped)

        \(Help.exits([.success: "stopped with --until-empty, or the store's work done", .usage: "no store given", .storeUnreachable: "the store cannot be reached", .storeServerGone: "the server went away: its claims are taken up by others once their leases run out"]))
        """

    static let rescore = """
        usage: shoebox rescore [--out DIR] [--store URL] [--pipeline FILE] [--wait]

        Judges every record in review again with what the merchant memory holds now (see `shoebox memory
        --help`), from the record the page gave: no page is read again. A morning of corrections teaches the
        memory; rescore then accepts what it now knows and names each record it changed. Decisions made in
        review stay on top. The pipeline file gives the accept settings, as for run.

          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
          --pipeline FILE    the pipeline file (default pipelines/default.json, else the built-in settings)
          --wait             wait for another command holding the output folder's lock
        """

    static let serve = """
        usage: shoebox serve [--out DIR] [--store URL] [--port N] [--today YYYY-MM-DD]

        Serves the review queue as a web app on 127.0.0.1 (never on other addresses) until Ctrl-C, and prints
        the address to open, with a random token that is the key to it. The queue by state, folder and
        reason; a record's fields with their evidence and alternates; keys: j/k next and previous, a accept,
        1-9 pick an alternate, e edit, r reject, d/n duplicate or not, u undo, x an expense without a
        receipt, ? the keys. Any record can be opened and corrected, accepted ones too. A record's deadlines
        each have a "settled" button; a charge of a recurring series shows the series and can mark it
        cancelled from a day, as `shoebox recurring --cancel` does. Decisions are checked and saved as in
        `shoebox review`, into the same store and its log.

        Refused: another Host than 127.0.0.1 or localhost at the port (421), a request without the token
        (403), a change without the page's own token or from another site's page (403), a path with '..' (400).
        A request must arrive whole within 10 seconds of its connection opening (408 after); when more than
        48 connections wait for theirs, the one waiting longest is closed (503).

          --out DIR      output folder (default ./shoebox-out)
          --store URL    a PostgreSQL store instead of the folder's SQLite one
          --port N       the port (default 8421; 0: any free one); taken by another program: exit \(ExitCode.portUnavailable.rawValue)
          --today DATE   the day typed dates are checked against (default: the system's date)
        """
    static let review = """
        usage: shoebox review [--out DIR] [--store URL] [--today YYYY-MM-DD] [--source PATH]
               shoebox review --export FILE [--out DIR] [--store URL]
               shoebox review --apply FILE [--out DIR] [--store URL] [--today YYYY-MM-DD] [--wait]

        Walks the review queue one record at a time: folder, file and document kind, the reasons, each field
        with its value, confidence and the line it was read from, how it was paid (a payment screen's app,
        what from, the card's last four), the record's deadlines, the recurring
        series it is a charge of, and the alternates as numbered choices. Reads one command per line (a
        terminal or piped input):

          a            accept the record as shown (after any edits)
          1-9          set a field to that alternate
          e FIELD [V]  edit merchant, date, total, currency, referenceNumber, paymentMethod, category,
                       note, tax (its lines as rate=amount; …: 19=2.65; 7=1.05, or none), receivedOn (the
                       day a fine arrived), or a contract's endOfTerm and noticePeriod (3 months, 30 days)
                       when they were not read: the deadlines are counted again from them; a value that
                       does not read as one (a bad amount or date, a category the folder's .shoebox.json
                       does not list) is refused and asked again. A total may carry its
                       currency (15.00 EUR, 15,00 €), which sets the record's; on a record without a currency
                       it must; only a credit note's or refund's may be below 0. Dates from 1900-01-01 to
                       --today; no control characters (NUL, ESC, line breaks); a merchant at most 200
                       characters, a referenceNumber, paymentMethod or category 100, a note 1,000
          r            reject: not a purchase (never exported)
          d / n        confirm it is a duplicate (never exported) / it is not a duplicate (of the record
                       it names: possible-duplicate, same-paper-reads-differently, e-invoice-reissued)
          x            an expense without a receipt: asks its folder, date, merchant, total with its
                       currency, category and note, checks them as edits, and saves it accepted
          t [KIND]     settle a deadline (paid, answered, returned): payment, return-window, warranty,
                       pay-reduced, objection or cancellation; asks which when more than one is open
          s            skip for now        u  undo the last decision        q  quit

        Every decision is saved at once; the pipeline's suggestion is kept unchanged beside it.

          --source PATH  open that one record whatever its state, an accepted one too, to correct it (the
                         next export shows the correction); the session ends at its final decision
          --export FILE  write the queue as JSON Lines (each record with its evidence and alternates)
          --apply FILE   apply decisions from JSON Lines, one per line:
                         {"source": "trip/IMG_0412.jpg", "action": "accept", "fields": {"total": "23.45"}}
                         action: accept, edit, reject, duplicate, not-duplicate; fields: edits made first.
                         An expense without a receipt: {"action": "add", "folder": "trip", "fields":
                         {"date": "2026-03-20", "merchant": "Parking", "total": "4.50 EUR"}} (also
                         currency, referenceNumber, paymentMethod, category, note), checked as edits are.
                         A deadline met: {"source": …, "action": "settle", "deadline": "payment"}. A
                         series cancelled: {"action": "cancel-series", "merchant": "netflix", "on":
                         "2026-05-20"} (a later charge goes to review as charged-after-cancellation).
                         Every line is checked first (against the record as the lines before leave it):
                         a bad line is reported with its line number and nothing is applied (exit \(ExitCode.usage.rawValue)).
                         Any record but a failed one may be decided: an accepted one corrected shows the
                         correction in the next export. A credit note's or refund's total may be typed
                         below 0 (-12.50 EUR); no other total can.
                         Two different final decisions for one record (accept and reject) are refused as
                         conflicting, naming both lines. --apply takes DIR's lock (as run, export and
                         import do); the interactive review does not hold it (it may stay open for hours).
          --wait         with --apply: when a run, export or import is working in DIR, wait for it (else exit \(ExitCode.busy.rawValue))
          --out DIR      output folder (default ./shoebox-out)
          --store URL    a PostgreSQL store instead of the folder's SQLite one
          --today DATE   the day typed dates are checked against (default: the system's date)

        \(Help.exits([
            .success: "done",
            .usage: "usage, a FILE that cannot be read or is not a regular file, or a bad line in the --apply file (nothing applied)",
            .outputUnusable: "no store in DIR or store unusable",
            .busy: "(--apply) another run, export or import holds DIR's lock (use --wait)"
        ]))
        """

    static let export = """
        usage: shoebox export [--out DIR] [--store URL] [--folder F] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                              [--csv-profile rfc4180|excel-eu] [--pipeline FILE] [--wait]
               shoebox export --format json [--file FILE] [--out DIR] [--store URL] [--wait]

        Writes DIR/exports/<folder>.zip for every folder (written to a temporary name of its own,
        renamed when complete; the same store gives byte-identical zips). The zip's name is the folder's
        name when it is a safe file name as it stands (letters, digits, - & +; at most 80 characters);
        otherwise the safe part plus _ and 8 hex digits of the SHA-256 of the exact folder name
        ("trip:1" -> trip1_<hash>.zip; reserved names such as "unsorted", "con" or "nul" get it too, and
        so do folders that differ only in case). Files at the top of the scan folder: unsorted.zip.
        Each zip holds:
          receipts/          the originals of accepted records (by the pipeline or confirmed in review),
                             named YYYY-MM-DD_merchant_12.34-EUR.ext; a standalone XML e-invoice as it is,
                             with an HTML page Shoebox renders from it beside it (.html)
          summary.csv        one row per record (RFC 4180; text that a spreadsheet would run as a formula
                             starts with an apostrophe)
          summary.xlsx       the same cells: amounts and dates as numbers and dates, a frozen header row
          summary.json       the same cells, plus how many documents were left out and why
          totals.csv         per currency and per category: records, total, tax, net (in minor units)
          ledger.beancount   a transaction per record, flagged ! for the bookkeeper, with its document
          MANIFEST.sha256    the SHA-256 of every other entry
        Columns: date, merchant, total, currency, net, tax_<rate> per rate, net_<rate> per rate an
        e-invoice states a basis for, tip, amount_due, payment_method, category, reference_number (the
        invoice number), seller_tax_id, document_kind, due_date, file, original_path, sha256, confidence,
        reviewed_by, record_id. A credit note's amounts are negative in every file.
        Documents in review, rejected, duplicates and failures are left out and counted per reason; so is
        an accepted record whose path no store may hold (accepted:unusable-path, only in a store an older
        Shoebox wrote), which blocks no other record or folder.
        A text cell over 32,767 characters (a spreadsheet's limit) is cut and ends in "…[truncated]".

        Categories come only from what you set: a folder's .shoebox.json in the scans folder
        ({"defaultCategory": "work trip", "categories": ["work trip", "medical"], "currency": "EUR",
        "language": "deu"}; `run` reads its currency, an inferred currency that is the folder's being no review
        reason, and its language, what its pages are first read in) and keyword rules in the pipeline file
        ("categoryRules": [{"keyword": "apotheke", "category": "medical"}]).

          --out DIR          output folder of `shoebox run` (default ./shoebox-out)
          --folder F         only the folder F
          --from, --to       only records dated in this range (inclusive)
          --csv-profile P    rfc4180 (default) or excel-eu: UTF-8 BOM, ';' between fields, decimal comma
          --pipeline FILE    pipeline settings (categoryRules, maxExportMegabytes: 0.001…1048576, default 2048)
          --format json      write the whole store (records, suggestions, review decisions, merchant memory,
                             series marked cancelled) as versioned JSON to FILE (default
                             DIR/exports/store.json); `shoebox import` reads it back
          --wait             when a run, import, review --apply or another export is working in DIR, wait
                             for it (else exit \(ExitCode.busy.rawValue))

        An export takes DIR's lock (DIR/run.lock, as `shoebox run`, `import` and `review --apply` do): one
        of them at a time.

        \(Help.exits([
            .success: "written", .usage: "usage", .outputUnusable: "store unusable or zip not writable",
            .busy: "another command holds the lock in DIR (use --wait)",
            .exportTooLarge: "larger than maxExportMegabytes (export a date range)",
            .originalChanged: "an original is missing or changed since it was read (re-run)",
            .folderSettingsInvalid: "a folder's .shoebox.json is invalid", .zipNameClash: "two folders would get the same zip name (rename one)"
        ]))
        """

    static let importStore = """
        usage: shoebox import FILE [--out DIR] [--store URL] [--today YYYY-MM-DD] [--wait]

        Merges a file written by `shoebox export --format json` into the store in DIR (created when
        missing). Documents already there (same path and content) are skipped, so importing twice adds
        nothing; their review decisions come along. Exporting the store again gives the same JSON.

          --out DIR          output folder (default ./shoebox-out)
          --store URL        a PostgreSQL store instead of the folder's SQLite one
          --today DATE       the day imported dates are checked against (default: the system's date)
          --wait             when a run, export or review --apply is working in DIR, wait for it (else exit \(ExitCode.busy.rawValue))

        An import takes DIR's lock (DIR/run.lock, as run, export and review --apply do).

        Every value is checked as a run would make it before anything is written: source paths relative
        to the scan folder (no "..", ".", empty part, leading "/" or control character), roots absolute,
        sha256 64 lowercase hex digits, states, dates (from 1900 to the day after --today), amounts,
        currency codes and review decisions valid (a typed merchant at most 200 characters, a
        referenceNumber at most 100; a suggestion's texts at most 1,000), at most 64 tax lines, and
        each amount at most 10^14 minor units (1,000,000,000,000.00 in a currency with cents). One bad value and the whole file is refused, naming the document, its path and
        the field; nothing is imported.

        \(Help.exits([
            .success: "merged", .usage: "usage, or FILE cannot be read or is not a regular file", .outputUnusable: "store unusable",
            .busy: "another run, export or review --apply holds DIR's lock (use --wait)",
            .importRefused: "the file is from a newer Shoebox (format version), is not a Shoebox store export, or holds an invalid value"
        ]))
        """

    static let regress = """
        usage: shoebox regress DIR [--scans SCANDIR] [--report FILE] [--baseline FILE] [--ocr-cache DIR]
                                   [--folds N] [--fit FILE] [--trust-rows FILE] [--items FILE]
                                   [--folders FILE] [--errata FILE] [--pipeline FILE] [--today YYYY-MM-DD] [--jobs N] [--quiet]

        Runs the pipeline on every document in DIR that has expected values and prints, per field, how
        many were read right (exact, and normalised: merchants without case, accents, punctuation and
        spaces), how many were auto-accepted and how many of those had total and date right, the OCR
        character error rate where ground-truth text exists, and every wrong field side by side.

        Expected values are read from four formats: the project's fixtures (<name>.expected.json with a
        "file" key), SROIE task-3 keys (<ID>.json beside <ID>.jpg, text lines in box/<ID>.txt),
        ZUGFeRD / Factur-X expectations (<name>.expected.json beside <name>.pdf), and a standalone XML
        e-invoice without an expectation file, whose expected values are those its XML states (a credit
        note's amounts negated). Net, tax per rate and due date are scored where they are expected.

          --scans SCANDIR    look documents up in SCANDIR under the same relative folder as their JSON
                             (for Fixtures/sample-expected, whose scans live in Fixtures/sample-scans);
                             a document missing there is looked for wrapped as a PDF (<name>.pdf)
          --report FILE      write the report as JSON
          --baseline FILE    compare with an earlier JSON report: fail only when a field falls below it
          --ocr-cache DIR    keep the OCR text of every page in DIR and reuse it (parser work)
          --folds N          cross-validate the trust model over N folds (2…20; fixed by each document's
                             path): each document's P(right) per field comes from a model fitted on the
                             other folds only. Prints per field the reliability table (predicted against
                             observed), the expected calibration error, the auto-accepted share and
                             its precision at each cut of P(total, date and currency all right), and the
                             cut the pipeline's acceptPrecision stands for (the lowest whose accepted set,
                             of at least 1/(1 - acceptPrecision) records, was that precise; when none is,
                             it says so); the report and the baseline hold them
          --fit FILE         fit the trust model on every document and write it to FILE, with --folds
                             its cross-validated accept curve too (make calibrate writes
                             Sources/ShoeboxJudgement/calibration.json, which the build embeds)
          --folders FILE     per folder, what its .shoebox.json would say ({"sroie": {"currency": "MYR"}}),
                             for folders not yours to write in; each folder's own file is read otherwise
          --errata FILE      labels the page itself contradicts (a JSON array of "document", "field",
                             "label", "corrected", "class", "evidence"; total, date or currency): the
                             trust model and its accept curve are measured against the corrected
                             labels, the field scores and the baseline against the labels as they are;
                             an entry whose label the suite no longer has is refused
          --trust-rows FILE  write per document what the trust model reads (features, right or not,
                             the other reasons) as JSON, to study other models or policies
          --items FILE       write per document its line items, what proves them, its total, the card
                             paid with and the lines of its pages (JSON lines), to look at by hand
          --quiet            leave out the list of wrong fields
          --jobs N           OCR worker threads, 1…64 (default: the pipeline's jobs, 0 = one per core)

        \(Help.exits([
            .success: "every field right (or, with --baseline, none below it)", .regressionFailed: "otherwise", .usage: "usage",
            .scanFolderMissing: "DIR missing", .engineMissing: "OCR engine missing",
            .pipelineFileInvalid: "a --pipeline, --folders or --errata file unusable"
        ]))
        """
}
