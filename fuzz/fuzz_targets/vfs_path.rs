//! Path normalisation: any input parses or is refused; what parses is
//! absolute, has no `.`/`..`/empty components, and is a fixed point.
#![no_main]

use goccia_vfs::VfsPath;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, &str)| {
    let (base, relative) = input;
    let Ok(base) = VfsPath::parse(base) else {
        return;
    };
    check(&base);
    if let Ok(joined) = base.resolve(relative) {
        check(&joined);
    }
});

fn check(path: &VfsPath) {
    let text = path.as_str();
    assert!(text.starts_with('/'), "{text:?}");
    assert!(!text.contains('\0'));
    for part in text.split('/').skip(1) {
        if text == "/" {
            break;
        }
        assert!(!part.is_empty() && part != "." && part != "..", "{text:?}");
    }
    assert_eq!(VfsPath::parse(text).as_ref(), Ok(path));
}
