//! What the server offers to read besides its tools: the spec its sandbox
//! was built from (docs/spec.md), so a client can see the limits, policy
//! and hosts it works under without guessing from refusals.

use goccia::Sandbox;
use rmcp::ErrorData;
use rmcp::model::{ListResourcesResult, ReadResourceResult, Resource, ResourceContents};

/// The sandbox's spec, as JSON.
pub const SPEC_URI: &str = "goccia://sandbox/spec";

/// Every resource the server offers.
pub fn list() -> ListResourcesResult {
    ListResourcesResult::with_all_items(vec![
        Resource::new(SPEC_URI, "sandbox-spec")
            .with_title("The sandbox's spec")
            .with_description(
                "Everything this sandbox was built from: seeds, limits, write policy, network, host commands (docs/spec.md)",
            )
            .with_mime_type("application/json"),
    ])
}

/// The resource at `uri`; an unknown one is `resource not found`.
pub fn read(sandbox: &Sandbox, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    if uri != SPEC_URI {
        return Err(ErrorData::resource_not_found(
            format!("no resource `{uri}`: this server offers {SPEC_URI}"),
            None,
        ));
    }
    let text = sandbox.spec().to_json();
    Ok(ReadResourceResult::new(vec![
        ResourceContents::TextResourceContents {
            uri: SPEC_URI.to_string(),
            mime_type: Some("application/json".to_string()),
            text,
            meta: None,
        },
    ]))
}
