fn main() {
    std::process::exit(goccia::cli::main());
}
