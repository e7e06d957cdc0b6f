import warp as wp


@wp.kernel
def nest_fbbb55055d(cells: wp.array2d(dtype=wp.int32), next_cells: wp.array2d(dtype=wp.int32), counts: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    cells_v = cells[i, j]
    neighbours = int(0)
    for di in range(-1, 2):
        for dj in range(-1, 2):
            ii = (i + di + cells.shape[0]) % cells.shape[0]
            jj = (j + dj + cells.shape[1]) % cells.shape[1]
            neighbours += cells[ii, jj]
    neighbours -= cells_v
    next_state = int(0)
    if cells_v == 1 and (neighbours == 2 or neighbours == 3):
        next_state = 1
    elif cells_v == 0 and neighbours == 3:
        next_state = 1
    next_cells[i, j] = next_state
    counts[i, j] = neighbours
