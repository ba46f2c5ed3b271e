import StrataServerApp

/// `strata-server --help`
@main
enum StrataServer {
    static func main() async {
        await ServerCommand.main()
    }
}
