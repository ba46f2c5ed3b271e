import GRDBServerApp

/// `grdb-server --help`
@main
enum GRDBServer {
    static func main() async {
        await ServerCommand.main()
    }
}
