"""The fix planners: one module per transform, pure functions from analysis facts to a `Fix` or a `Refusal`.

Each transform module (`rename_spmd_axis`, `add_mesh_axis`, `strip_spec_entries`, `move_placement`,
`lift_captures`, `disable_check_vma`, `drop_spmd_axis`) decides which `NodeEdit`s its fix makes and its
safety class from the measured rules of docs/safety.md; `edits` holds the edit builders they share (ruff's
`fix/edits.rs`). Nothing here edits text or imports libcst: `spmdfix.codemods` applies the edits.
"""
