from pkg.m import main as m_main
from pkg.other import main as other_main


def main():
    result, reference = m_main()
    return (result, other_main()), (reference, other_main())
