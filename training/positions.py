"""Training positions written by `yeoul positions` (format: src/train/positions.rs), and
the 8 symmetries of the board applied to planes and moves alike."""

import numpy as np

MAGIC = b"YEOULPOS"
HEADER_BYTES = 40


class Positions:
    """A positions file, memory-mapped: `len(p)` records; `batch(indices)` gives the input
    planes (batch, n, n, planes) as float32 and the moves as row-major points."""

    def __init__(self, path, planes=None, planes_version=None):
        with open(path, "rb") as f:
            header = f.read(HEADER_BYTES)
        if len(header) < HEADER_BYTES or header[:8] != MAGIC:
            raise ValueError(f"{path}: not a positions file")
        fields = np.frombuffer(header[8:32], "<u4")
        version, self.planes, self.planes_version, self.size, record_bytes, _ = (int(x) for x in fields)
        count = int(np.frombuffer(header[32:40], "<u8")[0])
        if version not in (1, 2, 3):
            raise ValueError(f"{path}: positions format version {version}")
        if planes is not None and (self.planes, self.planes_version) != (planes, planes_version):
            raise ValueError(
                f"{path}: planes {self.planes} version {self.planes_version}, expected {planes} version {planes_version}"
            )
        self.points = self.size * self.size
        packed = (self.planes * self.points + 7) // 8
        dtype = record_dtype(version, packed, self.points)
        if record_bytes != dtype.itemsize:
            raise ValueError(f"{path}: records of {record_bytes} bytes, expected {dtype.itemsize}")
        self.version = version
        self.records = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_BYTES, shape=(count,))
        self.packed_bytes = packed

    def __len__(self):
        return len(self.records)

    def packed(self, indices):
        """The records at `indices` (in file order): packed planes (batch, bytes) and moves.
        Packed, a position is 1/32 of its float planes: the trainer ships it so to the
        device and unpacks it there (`inputs`)."""
        rows = self.records[np.sort(indices)]
        return np.ascontiguousarray(rows["bits"]), rows["move"].astype(np.int32)

    def results(self, indices):
        """The result for the side to move at `indices` (in file order): 1 won, -1 lost,
        0 unknown (always 0 in a version-1 file), and the margin in points."""
        rows = self.records[np.sort(indices)]
        if self.version < 2:
            zeros = np.zeros(len(rows), np.float32)
            return zeros, zeros
        return rows["result"].astype(np.float32), rows["margin"].astype(np.float32) / 2

    def ownership(self, indices):
        """The final ownership at `indices` (in file order): whether it is known (batch,)
        and its two planes packed (batch, bytes): the side to move's points, then the
        opponent's (all zero before version 3)."""
        rows = self.records[np.sort(indices)]
        if self.version < 3:
            return np.zeros(len(rows), np.float32), np.zeros((len(rows), ownership_bytes(self.points)), np.uint8)
        known = (rows["flags"] & OWNERSHIP_KNOWN).astype(np.float32)
        return known, np.ascontiguousarray(rows["owner"])

    def flat(self, indices):
        """Planes as (batch, planes, points) uint8, and moves."""
        packed, moves = self.packed(indices)
        return unpack(packed, self.planes, self.points), moves

    def batch(self, indices, symmetries=None):
        """Inputs (batch, n, n, planes) float32 and moves; `symmetries` (one of 0..7 per
        position) turns each position and its move."""
        packed, moves = self.packed(indices)
        if symmetries is None:
            symmetries = np.zeros(len(moves), np.int32)
        return inputs(packed, moves, symmetries, self.planes, self.size)


# Flag bit of a record whose final ownership is known (format version 3).
OWNERSHIP_KNOWN = 1


def ownership_bytes(points):
    return (2 * points + 7) // 8


def record_dtype(version, packed, points):
    """A record of format `version` with `packed` bytes of planes. Version 2 adds the
    result for the side to move and the margin in half points, version 3 the flags (was
    a reserved byte) and the final ownership as two packed planes."""
    fields = [("move", "<u2"), ("number", "<u2")]
    if version >= 2:
        fields += [("result", "i1"), ("flags" if version >= 3 else "reserved", "u1"), ("margin", "<i2")]
    fields.append(("bits", "u1", (packed,)))
    if version >= 3:
        fields.append(("owner", "u1", (ownership_bytes(points),)))
    return np.dtype(fields)


def owner_targets(packed_owner, symmetries, size, xp=np):
    """The final ownership (batch, n*n) from the side to move's view (1 its point, -1 the
    opponent's, 0 nobody's), each position turned by its symmetry as `inputs` turns its
    planes; numpy or jax.numpy."""
    moves = xp.zeros(packed_owner.shape[0], xp.int32)
    bits, _ = transform(unpack(packed_owner, 2, size * size, xp), moves, symmetries, size, xp)
    bits = bits.astype(xp.float32)
    return bits[:, 0] - bits[:, 1]


def unpack(packed, planes, points, xp=np):
    """Packed rows to (batch, planes, points) bits, with numpy or jax.numpy (`xp`)."""
    bits = xp.unpackbits(packed, axis=1, bitorder="little")
    return bits[:, : planes * points].reshape(-1, planes, points)


def inputs(packed, moves, symmetries, planes, size, xp=np):
    """The network's inputs (batch, n, n, planes) float32 and the moves, each position
    turned by its symmetry; numpy or jax.numpy (`xp`: the trainer runs it on the device)."""
    bits, moves = transform(unpack(packed, planes, size * size, xp), moves, symmetries, size, xp)
    x = bits.reshape(-1, planes, size, size).transpose(0, 2, 3, 1)
    return x.astype(xp.float32), moves


def permutations(size):
    """perm[s][q]: the point whose content lands on point q under symmetry s (rows and
    columns of the row-major numbering); s = 0 is the identity."""
    grid = np.arange(size * size).reshape(size, size)
    out = []
    for s in range(8):
        g = np.rot90(grid, s % 4)
        if s >= 4:
            g = g[:, ::-1]
        out.append(g.reshape(-1))
    return np.stack(out)


def transform(bits, moves, symmetries, size, xp=np):
    """Turns each position (batch, planes, points) and its move by its symmetry."""
    perm = permutations(size)
    inverse = xp.asarray(np.argsort(perm, axis=1))
    index = xp.asarray(perm)[symmetries]  # (batch, points)
    turned = xp.take_along_axis(bits, index[:, None, :], axis=2)
    return turned, inverse[symmetries, moves]


def write(path, bits, moves, numbers=None, planes_version=1, results=None, margins=None, owners=None):
    """Writes positions in `yeoul positions`' format: `bits` (count, planes, points) of 0/1,
    `moves` row-major points (tests and synthetic sets); with `results` (1, -1 or 0 for
    the side to move) and `margins` (points), format version 2; with `owners` too
    ((count, points) of 1, -1, 0 from the side to move's view, or None for a position
    whose ownership is not known), version 3; else version 1."""
    count, planes, points = bits.shape
    size = int(round(points**0.5))
    packed = np.packbits(bits.reshape(count, -1), axis=1, bitorder="little")
    version = 1 if results is None else 2 if owners is None else 3
    records = np.zeros(count, record_dtype(version, packed.shape[1], points))
    records["move"] = moves
    records["number"] = np.zeros(count, np.int64) if numbers is None else numbers
    if version >= 2:
        records["result"] = results
        margins = np.zeros(count) if margins is None else np.asarray(margins)
        records["margin"] = np.round(margins * 2).astype(np.int16)
    if version == 3:
        for i, owner in enumerate(owners):
            if owner is not None:
                owner = np.asarray(owner)
                records["flags"][i] = OWNERSHIP_KNOWN
                two = np.concatenate([owner == 1, owner == -1]).astype(np.uint8)
                records["owner"][i] = np.packbits(two, bitorder="little")
    records["bits"] = packed
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(np.array([version, planes, planes_version, size, records.dtype.itemsize, 0], "<u4").tobytes())
        f.write(np.array([count], "<u8").tobytes())
        f.write(records.tobytes())
