import StrataWorkloads

// Runs one Strata workload a few times, for profilers.
let workload = CommandLine.arguments.dropFirst().first ?? "insert"
let tableSQL = "CREATE TABLE t (i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)"
let fillSQL = """
    WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 199999)
    INSERT INTO t SELECT x, x, x, x, x, x, x, x, x, x FROM c
    """
switch workload {
case "insert":
    let inserts = try StrataInserts(setupSQL: [tableSQL])
    try inserts.insertPositional(rowCount: 50_000)
case "insert-named":
    let inserts = try StrataInserts(setupSQL: [tableSQL])
    try inserts.insertNamed(rowCount: 50_000)
case "by-name":
    let reads = try StrataReads(setupSQL: [tableSQL, fillSQL, "CREATE TABLE dates (d TEXT)"])
    print(try reads.iterateRowsByName())
case "by-index":
    let reads = try StrataReads(setupSQL: [tableSQL, fillSQL, "CREATE TABLE dates (d TEXT)"])
    print(try reads.iterateRowsByIndex())
default:
    print("unknown workload \(workload)")
}
