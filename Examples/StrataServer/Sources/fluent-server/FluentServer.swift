import FluentServerApp

@main
struct FluentServer {
    static func main() async {
        await FluentServerCommand.main()
    }
}
