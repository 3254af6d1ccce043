from . import write_all

for path in write_all():
    print(path.relative_to(path.parents[1]))
