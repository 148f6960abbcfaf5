"""Tools that tie the proofs to the code they prove: source markers, listings, audits."""
