"""The dataset card (README.md) of an output folder, with the YAML header Hugging Face reads.

Everything in it comes from the run's settings and its merged manifest, never from the clock or the
machine, so a resumed or sharded run writes the same card as a single one.
"""
from __future__ import annotations

from pathlib import Path

from synthesis.writer import SPLIT_NAMES, atomic_write

LICENSE = "apache-2.0"  # the licence of warp-lang, whose compiler emitted the C++/CUDA in the pairs
CARD = "README.md"

STRING, INT = "string", "int64"
ARGUMENT = [("name", STRING), ("type", STRING), ("array_ndim", INT), ("role", STRING)]
VALIDATION = [("status", STRING), ("arch", STRING), ("nvcc_version", STRING), ("registers", INT),
              ("spill_stores_bytes", INT), ("spill_loads_bytes", INT), ("shared_memory_bytes", INT),
              ("stack_frame_bytes", INT), ("log", STRING), ("method", STRING)]
PAIR_METADATA = [("kernel_name", STRING), ("category", STRING), ("description", STRING), ("device", STRING),
                 ("seed", INT), ("run_seed", INT), ("index", INT), ("launch_dim", [INT]), ("block_dim", INT),
                 ("arguments", [ARGUMENT]), ("forward_function", STRING), ("backward_function", STRING),
                 ("warp_version", STRING), ("schema_version", INT), ("structure_hash", STRING)]
STANDALONE = [("kernel", STRING), ("program", STRING), ("makefile", STRING), ("input_seed", INT),
              ("written_arrays", [STRING]), ("expected_base64", STRING), ("validation", VALIDATION)]

KNOWN_LIMITS_TEMPLATE = """\
- Kernels are drawn by sixteen generator families from the forms people write (formulas, loops, solves,
  particle and mesh queries, tiles), with random sizes, constants and combinations: none is taken from
  a real program, and their mix (the families round-robin) is not that of hand-written code.
- Value types are drawn from the type registry (synthesis/dtypes.py: {types}) and `@wp.struct`s of
  them; tiles only in the `tiled` category; no textures or user-defined generic functions.
- `structure_hash` equates kernels that differ only in names, numeric literals and the spelling of
  one thing (`wp.float32` / `float`, `wp.array[T]` / `wp.array(dtype=T)`); near-duplicates with a
  different structure are not detected.
- The standalone CUDA is proven equal to Warp on the CPU (host emulation) and compiled with nvcc to
  PTX; it was not run on a GPU when the dataset was made unless the manifest says so."""


def known_limits() -> str:
    from synthesis.dtypes import TYPES

    return KNOWN_LIMITS_TEMPLATE.format(types=", ".join(n for n in TYPES if n != "bool"))


def _yaml_feature(name: str, kind, indent: int) -> list[str]:
    pad = " " * indent
    if isinstance(kind, str):
        return [f"{pad}- name: {name}", f"{pad}  dtype: {kind}"]
    if isinstance(kind, list) and len(kind) == 1 and isinstance(kind[0], str):
        return [f"{pad}- name: {name}", f"{pad}  sequence: {kind[0]}"]
    if isinstance(kind, list) and len(kind) == 1:  # a list of structs
        lines = [f"{pad}- name: {name}", f"{pad}  list:"]
        for sub, subkind in kind[0]:
            lines += _yaml_feature(sub, subkind, indent + 2)
        return lines
    lines = [f"{pad}- name: {name}", f"{pad}  struct:"]
    for sub, subkind in kind:
        lines += _yaml_feature(sub, subkind, indent + 2)
    return lines


def _header(data_files: dict[str, str], split_sizes: dict[str, int], features: list | None) -> str:
    lines = ["---", f"license: {LICENSE}", "tags:", "- code", "- cuda", "- nvidia-warp", "configs:",
             "- config_name: default", "  data_files:"]
    for split, pattern in data_files.items():
        lines += [f"  - split: {split}", f"    path: \"{pattern}\""]
    lines.append("dataset_info:")
    if features:
        lines.append("  features:")
        for name, kind in features:
            lines += _yaml_feature(name, kind, 2)
    lines.append("  splits:")
    for split, n in split_sizes.items():
        lines += [f"  - name: {split}", f"    num_examples: {n}"]
    lines.append("---")
    return "\n".join(lines)


def _table(counts: dict[str, int], what: str) -> str:
    rows = [f"| category | {what} |", "| --- | ---: |"] + [f"| {k} | {v} |" for k, v in counts.items()]
    return "\n".join(rows)


def pairs_card(settings: dict, manifest: dict, command: str) -> str:
    fmt, splits = settings["format"], settings.get("splits")
    name = "shard_*.jsonl" if fmt == "jsonl" else "*.json"
    if splits:
        data_files = {s: f"{s}/{name}" for s in SPLIT_NAMES[:len(splits)]}
        sizes = manifest["pairs_per_split"]
    else:
        data_files, sizes = {"train": name}, {"train": manifest["pairs"]}
    features = [("python_source", STRING), ("cpp_forward", STRING), ("cpp_backward", STRING), ("cpp_helpers", STRING)]
    if settings.get("standalone"):
        features.append(("cuda_standalone", STANDALONE))
    features.append(("metadata", PAIR_METADATA))
    structures = manifest["structures"]
    body = f"""
# Warp kernels and the C++/CUDA Warp's compiler emits for them

Random [NVIDIA Warp](https://github.com/NVIDIA/warp) kernels (Python) paired with the code Warp
{settings["warp_version"]} generates for them ({", ".join(settings["devices"])}; {"forward and backward" if settings["backward"] else "forward only"}){", and each kernel's standalone CUDA translation with Warp's reference outputs and its nvcc validation" if settings.get("standalone") else ""}.

Made by:

    {command}

The output is a function of these arguments alone (byte for byte, for any worker count, executor or
sharding); rerunning the command in this folder resumes or verifies it.

## Counts

{manifest["pairs"]} pairs from {settings["count"]} kernels requested; {manifest["failures"]["total"]} kernels failed
(listed with stage and reason in `manifest.json`). Structures: {structures["distinct"]} distinct,
{structures["duplicates"]} kernels repeat an earlier kernel's structure.

{_table(manifest["pairs_per_category"], "pairs")}
{_split_text(settings, manifest)}
## Schema (version {manifest["settings"]["schema_version"]})

- `python_source`: the `@wp.func` helpers and the `@wp.kernel`, without imports.
- `cpp_forward`, `cpp_backward` (null with `--no-backward`), `cpp_helpers`: the kernel's own
  functions and the helpers it calls, as Warp emits them for `metadata.device`.
{"- `cuda_standalone`: `kernel` (device code that compiles alone), `program` (the whole .cu whose `main` checks the kernel against `expected_base64`, Warp's CPU outputs, read as `expected.bin`), `makefile`, `input_seed`, `written_arrays`, `validation` (nvcc status and resources)." + chr(10) if settings.get("standalone") else ""}- `metadata`: `kernel_name`, `category`, `description`, `device`, `seed` (the kernel's), `run_seed`,
  `index`, `launch_dim`, `block_dim` (0: `wp.launch(kernel, dim=launch_dim)`; otherwise
  `wp.launch_tiled(kernel, dim=launch_dim, block_dim=block_dim)`), `arguments` (name, type, array_ndim, role), `forward_function`,
  `backward_function`, `warp_version`, `schema_version`, `structure_hash` (SHA-256 of the kernel's
  syntax tree with names, literals and spellings normalised).

## Licence

{LICENSE}, the licence of warp-lang, whose compiler emitted the C++/CUDA.

## Known limits

{known_limits()}
"""
    return _header(data_files, sizes, features) + "\n" + body


def _split_text(settings: dict, manifest: dict) -> str:
    splits = settings.get("splits")
    if not splits:
        return ""
    parts = ", ".join(f"{s} {manifest['pairs_per_split'][s]} pairs ({f:g})" for s, f in zip(SPLIT_NAMES, splits))
    return (f"\nSplits by structure hash, so no structure is in two splits: {parts}.\n")


def samples_card(settings: dict, summary: dict, command: str) -> str:
    validation = summary.get("validation")
    body = f"""
# Standalone, self-checking CUDA translations of Warp kernels

One folder per kernel: the Warp kernel (`<kernel>.py`), its CUDA translation (`<kernel>.cu`, whose
`main` rebuilds the inputs, runs the kernel and compares with `expected.bin`, Warp {settings["warp_version"]}'s
CPU outputs for the same inputs), a `Makefile` and `metadata.json`.

Made by:

    {command}

## Counts

{summary["samples_written"]} samples of {summary["samples_requested"]} requested; {summary["failures"]["total"]} failed
(listed with stage and reason in `production_summary.json`).
{"nvcc validation: " + str(validation["ok"]) + " ok, " + str(validation["failed"]) + " failed, " + str(validation["skipped"]) + " skipped." if validation else "Not compiled with nvcc (run with --validate)."}
Structures: {summary["structures"]["distinct"]} distinct, {summary["structures"]["duplicates"]} repeats.

{_table(summary["per_category"], "samples")}

## Schema

`metadata.json`: `kernel_name`, `category`, `description`, `seed`, `run_seed`, `index`,
`structure_hash`, `launch_dim`, `input_seed`, `arguments` (role, shape, value range), `written_arrays`,
`tolerance`, `reference`, `files`, `validation` (with --validate), `warp_version`.

## Licence

{LICENSE}, the licence of warp-lang.

## Known limits

{known_limits()}
"""
    return _header({"train": "sample_*/metadata.json"}, {"train": summary["samples_written"]}, None) + "\n" + body


def write_card(folder: Path, text: str) -> None:
    atomic_write(Path(folder) / CARD, text.encode())

