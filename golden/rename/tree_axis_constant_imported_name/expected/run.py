from pkg import train


def main():
    return train.main()
