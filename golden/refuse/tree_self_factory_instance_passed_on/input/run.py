from pkg.m import main as m_main, other


def main():
    result, reference = m_main()
    return (result, other()), (reference, other())
