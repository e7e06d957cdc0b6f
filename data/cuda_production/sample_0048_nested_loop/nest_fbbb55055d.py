import warp as wp


@wp.kernel
def nest_fbbb55055d(cells: wp.array2d(dtype=wp.int32), next_cells: wp.array2d(dtype=wp.int32), counts: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    cells_v = cells[i, j]
    neighbours1 = int(0)
    for di in range(-1, 2):
        for dj in range(-1, 2):
            ii = (i + di + cells.shape[0]) % cells.shape[0]
            jj = (j + dj + cells.shape[1]) % cells.shape[1]
            neighbours1 += cells[ii, jj]
    neighbours1 -= cells_v
    next_state2 = int(0)
    if cells_v == 1 and (neighbours1 == 2 or neighbours1 == 3):
        next_state2 = 1
    elif cells_v == 0 and neighbours1 == 3:
        next_state2 = 1
    next_cells[i, j] = next_state2
    counts[i, j] = neighbours1
