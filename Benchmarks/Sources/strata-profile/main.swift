import CWorkloads
import StrataWorkloads

// Runs one Strata workload a few times, for profilers.
let workload = CommandLine.arguments.dropFirst().first ?? "insert"
let tableSQL = "CREATE TABLE t (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)"
let fillSQL = """
    WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 199999)
    INSERT INTO t SELECT x, x, x, x, x, x, x, x, x, x FROM c
    """
switch workload {
case "c-insert":
    try CInserts(setupSQL: [tableSQL]).insertPositional(rowCount: 50_000)
case "c-insert-named":
    try CInserts(setupSQL: [tableSQL]).insertNamed(rowCount: 50_000)
case "c-by-name":
    print(try CReads(setupSQL: [tableSQL, fillSQL]).iterateRowsByName())
case "c-by-index":
    print(try CReads(setupSQL: [tableSQL, fillSQL]).iterateRowsByIndex())
case "c-ints":
    print(try CReads(setupSQL: [tableSQL, fillSQL]).fetchAllInts().count)
case "ints":
    print(try StrataReads(setupSQL: [tableSQL, fillSQL]).fetchAllInts().count)
case "insert":
    let inserts = try StrataInserts(setupSQL: [tableSQL])
    try inserts.insertPositional(rowCount: 50_000)
case "insert-named":
    let inserts = try StrataInserts(setupSQL: [tableSQL])
    try inserts.insertNamed(rowCount: 50_000)
case "by-name":
    print(try StrataReads(setupSQL: [tableSQL, fillSQL]).iterateRowsByName())
case "by-index":
    print(try StrataReads(setupSQL: [tableSQL, fillSQL]).iterateRowsByIndex())
case "dates", "c-dates":
    let datesSQL = """
        WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 99999)
        INSERT INTO dates SELECT strftime('%Y-%m-%d %H:%M:%f', 1600000000 + x * 37.123, 'unixepoch') FROM c
        """
    let setup = [tableSQL, "CREATE TABLE dates (d TEXT)", datesSQL]
    if workload == "dates" {
        print(try StrataReads(setupSQL: setup).fetchAllDates().count)
    } else {
        print(try CReads(setupSQL: setup).fetchAllDates().count)
    }
case "requests", "c-requests":
    let playerSQL = [
        "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)",
        """
        WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 999)
        INSERT INTO player (name, score) SELECT 'player' || ((x * 7919) % 1000), (x * 37) % 1000 FROM c
        """,
    ]
    if workload == "requests" {
        print(try StrataReads(setupSQL: playerSQL).queryInterfaceRequests())
    } else {
        print(try CReads(setupSQL: playerSQL).queryInterfaceRequests())
    }
case "records-by-name":
    print(try StrataReads(setupSQL: [tableSQL, fillSQL]).fetchRecordsByName())
case "records-by-index":
    print(try StrataReads(setupSQL: [tableSQL, fillSQL]).fetchRecordsByIndex())
case "records-decodable":
    print(try StrataReads(setupSQL: [tableSQL, fillSQL]).fetchDecodableRecords())
case "setup":
    _ = try CReads(setupSQL: [tableSQL, fillSQL])
case "c-records":
    print(try CReads(setupSQL: [tableSQL, fillSQL]).fetchRecords())
case "insert-records":
    try StrataInserts(setupSQL: [tableSQL]).insertRecords(rowCount: 50_000)
case "insert-encodable":
    try StrataInserts(setupSQL: [tableSQL]).insertEncodableRecords(rowCount: 50_000)
default:
    print("unknown workload \(workload)")
}
