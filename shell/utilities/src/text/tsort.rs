//! `tsort`: a total order of the pairs read (each pair `A B` says A comes
//! before B), as GNU coreutils prints it. Which of several valid orders is
//! printed, and which loop is reported, come from GNU's algorithm (Knuth's
//! algorithm T over items kept in byte order), so it is followed here step
//! by step: the items with nothing before them are queued in byte order, an
//! item's successors are visited newest pair first, and a loop is found by
//! walking the items in byte order along their pairs.

use std::collections::BTreeMap;
use std::io::Write;

use crate::args::{finish, usage};
use goccia_interp::input::IS_A_DIRECTORY;
use goccia_interp::interp::{ExecResult, ShellView};

pub fn tsort(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let operands = match crate::args::operands_only(args) {
        Ok(operands) => operands,
        Err(message) => return usage(shell, "tsort", &message, 1),
    };
    if let Some(extra) = operands.get(1) {
        return usage(
            shell,
            "tsort",
            &format!("extra operand \u{2018}{extra}\u{2019}"),
            1,
        );
    }
    let file = operands.first().map_or("-", String::as_str).to_string();
    let mut source = match goccia_interp::input::open_quiet(shell, &file) {
        Ok(source) => source,
        // GNU tsort's first read of a folder fails, and it takes that for
        // the end of an empty input: nothing printed, status 0.
        Err(IS_A_DIRECTORY) => return Ok(0),
        Err(reason) => return Ok(shell.fail_command("tsort", &format!("{file}: {reason}"), 1)),
    };
    let input = match source.read_all() {
        Ok(bytes) => bytes,
        Err(error) => return shell.io_status("tsort", error),
    };
    let tokens: Vec<&[u8]> = input
        .split(|b| matches!(b, b' ' | b'\t' | b'\n'))
        .filter(|token| !token.is_empty())
        .collect();
    if tokens.len() % 2 == 1 {
        let message = format!("{file}: input contains an odd number of tokens");
        return Ok(shell.fail_command("tsort", &message, 1));
    }
    let mut graph = Graph::default();
    for pair in tokens.chunks(2) {
        let before = graph.item(pair[0]);
        let after = graph.item(pair[1]);
        graph.relate(before, after);
    }
    let mut out = crate::args::buffered(shell);
    let mut status = 0;
    let mut printed = 0;
    let order = graph.order.values().copied().collect::<Vec<_>>();
    while printed < graph.items.len() {
        shell.check_watch()?;
        // T4: queue, in byte order, the items nothing is left before.
        for &item in &order {
            if graph.items[item].count == 0 && !graph.items[item].printed {
                graph.enqueue(item);
            }
        }
        // T5–T7: print the front of the queue and release its successors.
        while let Some(front) = graph.head {
            let item = &mut graph.items[front];
            item.printed = true;
            printed += 1;
            let mut line = item.name.clone();
            line.push(b'\n');
            if let Err(error) = out.write_all(&line) {
                return shell.io_status("tsort", error);
            }
            for index in (0..graph.items[front].successors.len()).rev() {
                let next = graph.items[front].successors[index];
                graph.items[next].count -= 1;
                if graph.items[next].count == 0 {
                    graph.append(next);
                }
            }
            graph.head = graph.items[front].queued_next;
        }
        // T8: what is left is held in a loop: report one and break it.
        if printed < graph.items.len() {
            if let Err(error) = out.flush() {
                return shell.io_status("tsort", error);
            }
            let message = format!("{file}: input contains a loop:");
            status = shell.fail_command("tsort", &message, 1);
            let mut walk = LoopWalk::default();
            loop {
                shell.check_watch()?;
                let found = order.iter().any(|&item| walk.visit(&mut graph, item));
                if let Some(members) = found.then(|| std::mem::take(&mut walk.reported)) {
                    for member in members {
                        let name =
                            goccia_interp::raw::decode(&graph.items[member].name).into_owned();
                        shell.fail_command("tsort", &name, 1);
                    }
                }
                if walk.start.is_none() {
                    break;
                }
            }
        }
    }
    finish(shell, "tsort", out, status)
}

/// One name read, and its place in the algorithm.
#[derive(Debug, Default)]
struct Item {
    name: Vec<u8>,
    /// Pairs that put something before it, not yet released.
    count: usize,
    /// What it comes before, in the order the pairs were read (visited
    /// newest first, as GNU's list, which grows at its head).
    successors: Vec<usize>,
    /// The next item in the queue, or on the path of a loop search.
    queued_next: Option<usize>,
    printed: bool,
}

#[derive(Debug, Default)]
struct Graph {
    items: Vec<Item>,
    /// Items by name: GNU keeps them in a search tree and walks it in
    /// byte order.
    order: BTreeMap<Vec<u8>, usize>,
    head: Option<usize>,
    tail: Option<usize>,
}

impl Graph {
    fn item(&mut self, name: &[u8]) -> usize {
        if let Some(&index) = self.order.get(name) {
            return index;
        }
        let index = self.items.len();
        self.items.push(Item {
            name: name.to_vec(),
            ..Item::default()
        });
        self.order.insert(name.to_vec(), index);
        index
    }

    /// `before` comes before `after`; a pair of one name only names it.
    fn relate(&mut self, before: usize, after: usize) {
        if before != after {
            self.items[after].count += 1;
            self.items[before].successors.push(after);
        }
    }

    /// Starts the queue, or adds to its end.
    fn enqueue(&mut self, item: usize) {
        match self.head {
            None => self.head = Some(item),
            Some(_) => self.append(item),
        }
        self.tail = Some(item);
    }

    fn append(&mut self, item: usize) {
        if let Some(tail) = self.tail {
            self.items[tail].queued_next = Some(item);
        }
        self.tail = Some(item);
    }
}

/// The search for a loop among the items left (GNU's `detect_loop`): a
/// path grows backwards from the first item left, through items that come
/// before its newest member, until an item already on it closes a loop.
#[derive(Debug, Default)]
struct LoopWalk {
    /// The path's newest member.
    start: Option<usize>,
    /// The members of the loop found, in the order GNU names them.
    reported: Vec<usize>,
}

impl LoopWalk {
    /// Visits `item`; true when a loop was found (and broken).
    fn visit(&mut self, graph: &mut Graph, item: usize) -> bool {
        if graph.items[item].count == 0 {
            return false;
        }
        let Some(newest) = self.start else {
            self.start = Some(item);
            return false;
        };
        let Some(position) = graph.items[item]
            .successors
            .iter()
            .rev()
            .position(|&next| next == newest)
        else {
            return false;
        };
        if graph.items[item].queued_next.is_none() {
            graph.items[item].queued_next = Some(newest);
            self.start = Some(item);
            return false;
        }
        // A loop: name its members back along the path to `item`, and
        // remove the pair from `item` to the path's newest member.
        let mut member = self.start;
        while let Some(current) = member {
            let next = graph.items[current].queued_next;
            self.reported.push(current);
            if current == item {
                let successors = &mut graph.items[item].successors;
                let index = successors.len() - 1 - position;
                let released = successors.remove(index);
                graph.items[released].count -= 1;
                break;
            }
            graph.items[current].queued_next = None;
            member = next;
        }
        while let Some(current) = member {
            member = graph.items[current].queued_next.take();
        }
        self.start = None;
        true
    }
}
